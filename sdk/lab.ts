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
import { getTableRowsOutput } from "./lookups";
import { Provider } from "./provider";
import { ProgramError } from "./programError";
import { calendarInstant, DEFAULT_TIME_ZONE } from "../provider/plan/labCalendar";
import * as resources from "./resources.generated";
import type { ApiKeyArgs, VirtualMachine, VmSnapshot, Vnet, VnetArgs } from "./resources.generated";
import type * as T from "./schemaTypes.generated";
import type { Args } from "./types";
import { type DeclaredVm, type VmClasses, type VmDeclarationArgs, declareVm } from "./vmDeclaration";
import { assertCalendar, type CalendarTasks, declareCalendar, userDisableTask, vmPowerTasks } from "./labCalendar";
import type { LabCalendar } from "./labCalendarArgs";
import type { LabAccess, LabUserArgs } from "./labAccessArgs";
import { assertLabAccess, declareCopyGrants, declareCopyUser } from "./labGrants";
import { VNET_TABLE } from "../provider/schemas/tables";

/** A copy's network is up: on the platform a vnet passes traffic only while it runs. */
const COPY_VNET_POWER: Partial<VnetArgs> = { powerState: "running" };

/** A reference a lab's VM may hold: a key (or an output of one), or the resource itself. */
type Ref<R extends pulumi.CustomResource> = pulumi.Input<string> | R;

type Nic = NonNullable<VmDeclarationArgs["nics"]>[number];

type CloneParams = Args<Omit<NonNullable<T.VirtualMachineInputs["cloneFrom"]>, "vm" | "snapshot">>;

/** A VM of the lab's template: the fields of an environment file's VM, hardware nested; its name is local to the copy. */
export type LabVmArgs = Omit<VmDeclarationArgs, "cloneFrom" | "nics"> & {
  /**
   * `vm`: the name of a VM of the template (that copy's VM is cloned), or a VM key, or a VirtualMachine;
   * or `snapshot`: a VmSnapshot or its key (the term's image, pinned while the golden VM is edited).
   */
  cloneFrom?: CloneParams & ({ vm: Ref<VirtualMachine> } | { snapshot: Ref<VmSnapshot> });
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
  /**
   * One user per copy, named as the copy, with role `none` and grants on its own copy only (its VMs: read, power,
   * restore, console; its vnet: read). A role reaches beyond the copy: refused unless `beyondCopy: true` says it is meant.
   */
  user?: LabUserArgs;
  /** What each copy's user may do beyond running its VMs (`hardware: change`: their drives, NICs and snapshots too). */
  access?: LabAccess;
  /** One API key per copy, of the copy's user (needs `user`). */
  apiKey?: Omit<ApiKeyArgs, "name" | "user">;
  /** A VmSnapshot of this name of each VM of each copy, taken once its hardware is attached and its power applied. */
  resetSnapshot?: string;
  /**
   * Class hours and the end of the term, run by the platform's own schedules: weekly sessions power every copy's
   * VMs on at their start and off at their stop; at `ends` the VMs power off, the copies' users are disabled and
   * their API keys expire.
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
 * The classes a lab's resources are declared with, by the registry's names, and the look-up it starts with: the
 * SDK's own for vp.Lab (dynamic resources, the look-up run in the program), or classes of the plugin's types for
 * the plugin's component vplatform:index:Lab (sdk/labComponent.ts). One declaration serves both.
 */
export interface LabClasses extends VmClasses {
  Vnet: typeof resources.Vnet;
  VmSnapshot: typeof resources.VmSnapshot;
  ApiKey: typeof resources.ApiKey;
  User: typeof resources.User;
  Permission: typeof resources.Permission;
  Task: typeof resources.Task;
  Schedule: typeof resources.Schedule;
  /** The platform's vnets (name, network), read at preview too, through the lab's provider. */
  vnetRows(opts: pulumi.ComponentResourceOptions | undefined): pulumi.Output<{ name: string; network?: string }[]>;
}

/** vp.Lab's: the SDK's classes; the vnets read by the look-up of the lab's site (its Provider, else the stack config). */
const SDK_CLASSES: LabClasses = {
  ...resources,
  vnetRows: (opts) =>
    getTableRowsOutput(
      { table: VNET_TABLE, fields: ["name", "network"], limit: 0 },
      { provider: opts?.provider instanceof Provider ? opts.provider : undefined },
    ).apply(({ rows }) => rows as { name: string; network?: string }[]),
};

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
    this.copies = declareLab(this, name, args, SDK_CLASSES, opts);
    this.registerOutputs({ copies: this.copies });
  }
}

/** The copies of lab `name`, declared as children of `lab` with `classes` (vp.Lab's constructor, the plugin's Construct). */
export function declareLab(
  lab: pulumi.ComponentResource,
  name: string,
  args: LabArgs,
  classes: LabClasses,
  opts?: pulumi.ComponentResourceOptions,
): Record<string, LabCopyOutputs> {
  if (args.apiKey && !args.user) throw new ProgramError(`lab '${name}': apiKey: a copy's key is its user's: declare user too`);
  assertLabAccess(name, args.user, args.access);
  const now = Date.now();
  if (args.calendar) assertCalendar(name, args.calendar, now);
  if (args.calendar?.sessions?.length && args.vms.some((v) => v.powerState !== undefined)) {
    throw new ProgramError(`lab '${name}': vms: powerState: the calendar powers the copies on and off: leave powerState out`);
  }
  const copies = planCopies({ name, ...args });
  const gate = clearOfExistingVnets(name, copies, classes.vnetRows(opts));
  const power: CalendarTasks = { poweron: [], poweroff: [], disable: [] };
  const declared = Object.fromEntries(copies.map((copy) => [copy.key, declareCopy(lab, copy, args, gate, power, classes)]));
  if (args.calendar) declareCalendar(name, args.calendar, power, lab, now, classes.Schedule);
  return declared;
}

function declareCopy(
  lab: pulumi.ComponentResource,
  copy: LabCopy,
  args: LabArgs,
  gate: pulumi.Output<pulumi.Resource[]>,
  power: CalendarTasks,
  classes: LabClasses,
): LabCopyOutputs {
  const { network, gateway, dhcpStart, dhcpStop } = copy;
  const vnet = new classes.Vnet(
    copy.name,
    { dhcpEnabled: true, ...args.vnet, ...COPY_VNET_POWER, name: copy.name, network, gateway, dhcpStart, dhcpStop },
    { parent: lab, dependsOn: gate },
  );
  const declared = new Map<string, DeclaredVm>();
  const ref = <R extends pulumi.CustomResource>(r: CopyRef<Ref<R>>): { key: pulumi.Input<string>; on: pulumi.Resource[] } => {
    if ("copyVnet" in r) return { key: vnet.id, on: [vnet] };
    if ("copyVm" in r) return { key: declared.get(r.copyVm)!.vm.id, on: [] };
    return r.given instanceof pulumi.CustomResource ? { key: r.given.id, on: [r.given] } : { key: r.given, on: [] };
  };
  const vms: Record<string, LabCopyVm> = {};
  const machines: Record<string, VirtualMachine> = {};
  for (const vm of copyVms<LabVmArgs, Ref<VirtualMachine | Vnet | VmSnapshot>>(args.vms, copy.name)) {
    const { template, cloneFrom, nics, ...rest } = vm;
    const source = cloneFrom && ref("vm" in cloneFrom ? cloneFrom.vm : cloneFrom.snapshot);
    const vnets = nics.map((n) => ref(n.vnet));
    // Hardware goes with its VM (deletedWith), so the VM itself must be gone before the vnets of its NICs.
    const on = [...vnets.flatMap((v) => v.on), ...(source?.on ?? [])];
    // A copy's VMs have only their declared hardware: a student's NIC or drive is drift, and `up` removes it.
    const made = declareVm(
      {
        exclusiveHardware: true,
        ...rest,
        ...(cloneFrom
          ? { cloneFrom: "vm" in cloneFrom ? { ...cloneFrom, vm: source!.key } : { ...cloneFrom, snapshot: source!.key } }
          : {}),
        nics: nics.map((n, i) => ({ ...n, vnet: vnets[i].key })),
      },
      { parent: lab, dependsOn: gate.apply((g) => [...g, ...on]) },
      classes,
    );
    declared.set(vm.name, made);
    machines[template] = made.vm;
    vms[template] = vmOutputs(made, vm.name, vm.powerState, args.resetSnapshot, classes);
    if (args.calendar) {
      const tasks = vmPowerTasks(made.vm, vm.name, lab, classes.Task);
      power.poweron.push(tasks.poweron);
      power.poweroff.push(tasks.poweroff);
    }
  }
  const user = args.user ? declareCopyUser(copy.name, args.user, { parent: lab, dependsOn: gate }, classes.User) : undefined;
  if (user) declareCopyGrants(copy.name, user, vnet, machines, args.access, lab, classes.Permission);
  if (user && args.calendar?.ends !== undefined) power.disable.push(userDisableTask(user, copy.name, lab, classes.Task));
  const key =
    user && args.apiKey
      ? new classes.ApiKey(
          copyApiKeyName(copy.name),
          // The term's end is the key's: it answers 401 from then on (the spec's Set Date expiry).
          { ...args.apiKey, ...termExpiry(args.calendar), name: copyApiKeyName(copy.name), user: user.id },
          { parent: lab },
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
function vmOutputs(
  made: DeclaredVm,
  name: string,
  powerState: LabVmArgs["powerState"],
  resetSnapshot: string | undefined,
  { VmSnapshot }: LabClasses,
) {
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
function clearOfExistingVnets(lab: string, copies: LabCopy[], vnets: pulumi.Output<{ name: string; network?: string }[]>) {
  return vnets.apply((rows) => {
    const clashes = existingVnetClashes(lab, copies, rows);
    if (clashes.length > 0) throw new ProgramError(clashes.join("\n"));
    return [] as pulumi.Resource[];
  });
}
