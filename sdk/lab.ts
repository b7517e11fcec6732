import * as pulumi from "@pulumi/pulumi";
import {
  type CopyRef,
  type LabCopy,
  copyApiKeyName,
  copySnapshotName,
  copyVms,
  existingVnetClashes,
  planCopies,
} from "../provider/plan/lab";
import { VNET_TABLE } from "../provider/resources/vnet/schema";
import { getTableRowsOutput } from "./lookups";
import { Provider } from "./provider";
import { ProgramError } from "./programError";
import { calendarInstant, DEFAULT_TIME_ZONE } from "../provider/plan/labCalendar";
import {
  ApiKey,
  type ApiKeyArgs,
  type Task,
  User,
  type UserArgs,
  type VirtualMachine,
  VmSnapshot,
  Vnet,
  type VnetArgs,
} from "./resources.generated";
import type * as T from "./schemaTypes.generated";
import type { Args } from "./types";
import { type DeclaredVm, type VmDeclarationArgs, declareVm } from "./vmDeclaration";
import { assertCalendar, declareCalendar, vmPowerTasks } from "./labCalendar";
import type { LabCalendar } from "./labCalendarArgs";

/** A copy's network is up: on the platform a vnet passes traffic only while it runs. */
const COPY_VNET_POWER: Partial<VnetArgs> = { powerState: "running" };

/** A reference a lab's VM may hold: a key (or an output of one), or the resource itself. */
type Ref<R extends pulumi.CustomResource> = pulumi.Input<string> | R;

type Nic = NonNullable<VmDeclarationArgs["nics"]>[number];

/** A VM of the lab's template: the fields of an environment file's VM, hardware nested; its name is local to the copy. */
export type LabVmArgs = Omit<VmDeclarationArgs, "cloneFrom" | "nics"> & {
  /** `vm`: the name of a VM of the template (that copy's VM is cloned), or a VM key, or a VirtualMachine. */
  cloneFrom?: Args<Omit<NonNullable<T.VirtualMachineInputs["cloneFrom"]>, "vm">> & { vm: Ref<VirtualMachine> };
  /** A NIC without `vnet` is on the copy's vnet. */
  nics?: (Omit<Nic, "vnet"> & { vnet?: Ref<Vnet> })[];
};

export interface LabArgs {
  /** How many copies: copy n keeps its name and network whatever the count (grow adds, shrink removes the last). */
  copies: number;
  /** The block each copy's network is carved from, e.g. 10.100.0.0/16 (one /24 per copy, in copy order). */
  pool: string;
  /** The length of each copy's network (default 24). */
  copyPrefix?: number;
  /** Copy names: `{lab}` and `{n}` (zero-padded to two digits); default `{lab}-{n}` → course-01. */
  copyName?: string;
  /** The template of one copy. */
  vms: LabVmArgs[];
  /** Other fields of every copy's vnet (its name and addresses are the lab's). */
  vnet?: Omit<VnetArgs, "name" | "network" | "gateway" | "dhcpStart" | "dhcpStop">;
  /** One user per copy, named as the copy. */
  user?: Omit<UserArgs, "name">;
  /** One API key per copy, of the copy's user (needs `user`). */
  apiKey?: Omit<ApiKeyArgs, "name" | "user">;
  /** A VmSnapshot of this name of each VM of each copy, taken once its hardware is attached and its power applied. */
  resetSnapshot?: string;
  /**
   * Class hours and the end of the term, run by the platform's own schedules: weekly sessions power every copy's
   * VMs on at their start and off at their stop; at `ends` the VMs power off and the copies' API keys expire.
   */
  calendar?: LabCalendar;
}

/** A copy's VM, by its name in the template. */
export interface LabCopyVm {
  id: pulumi.Output<string>;
  machineKey: pulumi.Output<string>;
  name: string;
  /** As declared; left out when the VM's power is not managed (an output has no undefined, only absent or null). */
  powerState?: "running" | "stopped";
  /** Its reset snapshot's id, when the lab declares resetSnapshot. */
  snapshot?: pulumi.Output<string>;
}

/** What a lab declares for one copy; the leaves are outputs (an API key's secret stays a Pulumi secret). */
export interface LabCopyOutputs {
  number: number;
  name: string;
  vnet: { id: pulumi.Output<string>; name: string; network: string };
  user?: { id: pulumi.Output<string>; name: string };
  apiKey?: { id: pulumi.Output<string>; secret: pulumi.Output<string> };
  vms: Record<string, LabCopyVm>;
}

/**
 * A lab for a class: `copies` isolated copies of one template of VMs, each with its own vnet carved from `pool`,
 * and optionally a user, an API key and a reset snapshot per copy; every resource a child of the lab.
 *
 *   new vp.Lab("course", { copies: 30, pool: "10.100.0.0/16", vms: [{ name: "web", cloneFrom: { vm: golden }, nics: [{}] }] })
 */
export class Lab extends pulumi.ComponentResource {
  /** Per copy, by its zero-padded number (`"01"`). */
  readonly copies: Record<string, LabCopyOutputs>;

  constructor(name: string, args: LabArgs, opts?: pulumi.ComponentResourceOptions) {
    super("vplatform:index:Lab", name, {}, opts);
    if (args.apiKey && !args.user) throw new ProgramError(`lab '${name}': apiKey: a copy's key is its user's: declare user too`);
    const now = Date.now();
    if (args.calendar) assertCalendar(name, args.calendar, now);
    if (args.calendar?.sessions?.length && args.vms.some((v) => v.powerState !== undefined)) {
      throw new ProgramError(`lab '${name}': vms: powerState: the calendar powers the copies on and off: leave powerState out`);
    }
    const copies = planCopies({ name, ...args });
    const gate = clearOfExistingVnets(name, copies, opts);
    const power = { poweron: [] as Task[], poweroff: [] as Task[] };
    this.copies = Object.fromEntries(copies.map((copy) => [copy.key, this.declareCopy(copy, args, gate, power)]));
    if (args.calendar) declareCalendar(name, args.calendar, power, this, now);
    this.registerOutputs({ copies: this.copies });
  }

  private declareCopy(
    copy: LabCopy,
    args: LabArgs,
    gate: pulumi.Output<pulumi.Resource[]>,
    power: Record<"poweron" | "poweroff", Task[]>,
  ): LabCopyOutputs {
    const { network, gateway, dhcpStart, dhcpStop } = copy;
    const vnet = new Vnet(
      copy.name,
      { dhcpEnabled: true, ...args.vnet, ...COPY_VNET_POWER, name: copy.name, network, gateway, dhcpStart, dhcpStop },
      { parent: this, dependsOn: gate },
    );
    const declared = new Map<string, DeclaredVm>();
    const ref = <R extends pulumi.CustomResource>(r: CopyRef<Ref<R>>): { key: pulumi.Input<string>; on: pulumi.Resource[] } => {
      if ("copyVnet" in r) return { key: vnet.id, on: [vnet] };
      if ("copyVm" in r) return { key: declared.get(r.copyVm)!.vm.id, on: [] };
      return r.given instanceof pulumi.CustomResource ? { key: r.given.id, on: [r.given] } : { key: r.given, on: [] };
    };
    const vms: Record<string, LabCopyVm> = {};
    for (const vm of copyVms<LabVmArgs, Ref<VirtualMachine | Vnet>>(args.vms, copy.name)) {
      const { template, cloneFrom, nics, ...rest } = vm;
      const source = cloneFrom && ref(cloneFrom.vm);
      const vnets = nics.map((n) => ref(n.vnet));
      // Hardware goes with its VM (deletedWith), so the VM itself must be gone before the vnets of its NICs.
      const on = [...vnets.flatMap((v) => v.on), ...(source?.on ?? [])];
      const made = declareVm(
        {
          ...rest,
          ...(cloneFrom ? { cloneFrom: { ...cloneFrom, vm: source!.key } } : {}),
          nics: nics.map((n, i) => ({ ...n, vnet: vnets[i].key })),
        },
        { parent: this, dependsOn: gate.apply((g) => [...g, ...on]) },
      );
      declared.set(vm.name, made);
      vms[template] = vmOutputs(made, vm.name, vm.powerState, args.resetSnapshot);
      if (args.calendar) {
        const tasks = vmPowerTasks(made.vm, vm.name, this);
        power.poweron.push(tasks.poweron);
        power.poweroff.push(tasks.poweroff);
      }
    }
    const user = args.user ? new User(copy.name, { ...args.user, name: copy.name }, { parent: this, dependsOn: gate }) : undefined;
    const key =
      user && args.apiKey
        ? new ApiKey(
            copyApiKeyName(copy.name),
            // The term's end is the key's: it answers 401 from then on (the spec's Set Date expiry).
            { ...args.apiKey, ...termExpiry(args.calendar), name: copyApiKeyName(copy.name), user: user.id },
            { parent: this },
          )
        : undefined;
    return {
      number: copy.number,
      name: copy.name,
      vnet: { id: vnet.id, name: copy.name, network },
      ...(user ? { user: { id: user.id, name: copy.name } } : {}),
      ...(key ? { apiKey: { id: key.id, secret: key.secret } } : {}),
      vms,
    };
  }
}

/** A key's expiry at the term's end, when the calendar has one. */
const termExpiry = (calendar: LabCalendar | undefined): { expires?: string } =>
  calendar?.ends === undefined
    ? {}
    : {
        expires: new Date(calendarInstant(calendar.ends, calendar.timeZone ?? DEFAULT_TIME_ZONE, "end"))
          .toISOString()
          .replace(".000Z", "Z"),
      };

/** A copy's VM in the lab's outputs; with its reset snapshot, taken once its hardware is attached and its power applied. */
function vmOutputs(made: DeclaredVm, name: string, powerState: LabVmArgs["powerState"], resetSnapshot: string | undefined) {
  const out: LabCopyVm = { id: made.vm.id, machineKey: made.vm.machineKey, name, ...(powerState ? { powerState } : {}) };
  if (!resetSnapshot) return out;
  const snapshot = new VmSnapshot(
    copySnapshotName(name, resetSnapshot),
    { vm: made.vm.id, name: resetSnapshot },
    { parent: made.vm, dependsOn: [...made.hardware, ...(made.power ? [made.power] : [])] },
  );
  return { ...out, snapshot: snapshot.id };
}

/**
 * Nothing of the lab is declared until the vnets on the platform are read (at preview too) and no copy's network
 * overlaps one: the children depend on this output, so a clash fails the program before any of them is sent.
 */
function clearOfExistingVnets(lab: string, copies: LabCopy[], opts: pulumi.ComponentResourceOptions | undefined) {
  const provider = opts?.provider instanceof Provider ? opts.provider : undefined;
  return getTableRowsOutput({ table: VNET_TABLE, fields: ["name", "network"], limit: 0 }, { provider }).apply(({ rows }) => {
    const clashes = existingVnetClashes(lab, copies, rows as { name: string; network?: string }[]);
    if (clashes.length > 0) throw new ProgramError(clashes.join("\n"));
    return [] as pulumi.Resource[];
  });
}
