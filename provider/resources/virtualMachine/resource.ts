import { perSession, type Session } from "../../reconcile/session";
import {
  type VirtualMachineInputs,
  type VirtualMachineOutputs,
  virtualMachineOutputs,
  toCloneParams,
  virtualMachineRows,
  virtualMachineInputsSchema,
  virtualMachineShape,
} from "./schema";
import { apiUpdateBody, type ResourceDiff } from "../../plan/diff";
import { diffVirtualMachine } from "./diff";
import { toBoolean } from "../../schemas/normalize";
import { withoutOutputs } from "../../schemas/outputs";
import { type LiveVmState, type VmStep, planVmUpdate } from "./updatePlan";
import { type CloudinitFile, readCloudinitFiles, syncCloudinitFiles } from "../../reconcile/cloudinitFiles";
import { markerOf, withoutTag } from "../../reconcile/createMarker";
import { isNameConflict } from "../../reconcile/insertRow";
import { type MachineStatus, readMachineStatus } from "../../reconcile/machineStatus";
import { errorText, type Row, str } from "../../reconcile/platform";
import { type CloneTree, cloneTreeOf } from "../../reconcile/cloneTree";
import { type VmRef, powerOff, powerOn, powerTimeouts } from "../../reconcile/power";
import { machineDeletions } from "../../reconcile/deletions";
import { forgetVm, rememberMadeHere, rememberVm, rememberVmRef } from "../../reconcile/machineOwners";
import type { OperationTimeouts } from "../../schemas/timeouts";
import { type CloneSource, type LiveVm, deleteVm, enforcePower, findVmByName, insertVm, readVm, setVmNote } from "./platform";
import { assertAdoptable, assertRecoveredMatches, findAdoptable } from "../framework/adoption";
import { declaredFields } from "../framework/declaredFields";
import { PartialCreateError } from "../framework/defineProvider";
import { defineResource } from "../framework/defineResource";
import { nounOf } from "../../schemas/nouns";
import { type NameTakenRule, verifyNameFree } from "../framework/nameTaken";
import { VM_CHECK_FIELDS } from "../framework/checkListing";
import { resolveTimeouts } from "../framework/operationTimeouts";
import { settingNaming } from "../../config/provider-config";
import { type MachineHardware, cloneBaseline, describeStrays, formatBaseline, strayHardware } from "../../plan/strayHardware";
import { machineHardware, removeStrays } from "../../reconcile/strayHardware";
import { VM_TABLE } from "../../schemas/tables";
import { POWER_BY_VMPOWER_INPUT, START_AFTER_HARDWARE_INPUT } from "../../schemas/hiddenInputs";

type PowerState = "running" | "stopped";

/** `needRestart` is read live on refresh; after our own changes it is false (power-cycle changes are applied with a cycle). */
function outputs(
  inputs: VirtualMachineInputs,
  vm: VmRef,
  status: MachineStatus,
  needRestart = false,
  hardware: HardwareOutputs = {},
): VirtualMachineOutputs {
  return { ...inputs, machineKey: vm.machineKey, status: status.status, running: status.running, needRestart, ...hardware };
}

type HardwareOutputs = Pick<VirtualMachineOutputs, "baselineHardware" | "strayHardware">;

/** The hardware of each clone source, read once per session (a class's 90 clones share their golden VM's). */
const sourceHardware = perSession(() => new Map<string, Promise<MachineHardware[]>>());

function hardwareOfSource(api: Session, source: CloneSource): Promise<MachineHardware[]> {
  const known = sourceHardware(api);
  let read = known.get(source.machineKey);
  if (!read) {
    read = machineHardware(api, source.machineKey);
    read.catch(() => known.delete(source.machineKey)); // a failed read is tried again
    known.set(source.machineKey, read);
  }
  return read;
}

/**
 * With exclusiveHardware, what the VM has of its own besides what its program declares: a new VM nothing, a clone
 * made now its copies of its source's unmarked hardware (none, without a read, when the source has none: see
 * cloneBaseline), an adopted VM (or one found after an interrupted create) what it holds.
 */
async function baselineAtCreate(
  api: Session,
  vm: VmRef,
  inputs: VirtualMachineInputs,
  made: { adopted: boolean; recovered: boolean; clonedFrom?: CloneSource },
): Promise<HardwareOutputs> {
  if (inputs.exclusiveHardware !== true) return {};
  const found = made.adopted || made.recovered;
  const known = found ? undefined : made.clonedFrom ? cloneBaseline(await hardwareOfSource(api, made.clonedFrom)) : "";
  if (known !== undefined) return { baselineHardware: known, strayHardware: "" };
  const held = (await machineHardware(api, vm.machineKey)).filter((r) => !r.marked);
  return { baselineHardware: formatBaseline(held), strayHardware: "" };
}

const statusOf = (running: boolean): MachineStatus =>
  running ? { running: true, status: "running" } : { running: false, status: "stopped" };

const declaredFiles = (inputs: { cloudinitFiles?: CloudinitFile[] }) => inputs.cloudinitFiles?.map((f) => f.name) ?? [];

/** The live VM expressed as inputs; provider-only fields come from the last known inputs. */
async function liveInputs(api: Session, live: LiveVm, olds: VirtualMachineOutputs): Promise<VirtualMachineInputs> {
  const declared = withoutOutputs(olds, virtualMachineOutputs);
  const inputs = { ...declared, ...virtualMachineRows.fromApiRow(withoutTag(live.row), declaredFields(declared)) } as VirtualMachineInputs;
  // Power is managed only when declared; then the live machine status is the truth.
  if (declared.powerState !== undefined) inputs.powerState = live.status.running ? "running" : "stopped";
  // Files are read only when managed: an undeclared list costs no request.
  if (declared.cloudinitFiles !== undefined) inputs.cloudinitFiles = await readCloudinitFiles(api, live.ref.vmKey, declaredFiles(declared));
  return inputs;
}

/** The clone's source as this run clones it: its keys, its settings (a pristine clone has them too) and its tree. */
interface ResolvedClone {
  source: CloneSource;
  /** The source's VM row (settings columns): what every clone of it starts with. */
  settings: Row;
  tree: CloneTree;
}

/**
 * The source of a clone, read once per session and source (a whole class
 * clones one golden VM): its keys and settings, and whether it is what
 * `cloneFrom` says it is (a VM, or a snapshot).
 */
const cloneSources = perSession(() => new Map<string, Promise<Row | undefined>>());

async function resolveCloneSource(api: Session, inputs: VirtualMachineInputs): Promise<ResolvedClone | undefined> {
  const clone = inputs.cloneFrom;
  if (!clone) return undefined;
  const key = (clone.snapshot ?? clone.vm) as string;
  const read = () => api.get(VM_TABLE, key, `$key,machine,name,is_snapshot,${virtualMachineRows.readFields}`);
  const known = cloneSources(api);
  if (!known.has(key)) known.set(key, read());
  const src = await (known.get(key) as Promise<Row | undefined>).catch((err: unknown) => {
    known.delete(key); // a failed read is tried again by the next clone
    throw err;
  });
  if (!src) {
    known.delete(key);
    throw new Error(
      clone.snapshot === undefined
        ? `vplatform: cloneFrom.vm: no VM with key '${key}'`
        : `vplatform: cloneFrom.snapshot: no snapshot with key '${key}' (a VmSnapshot's id)`,
    );
  }
  if (clone.snapshot !== undefined && toBoolean(src.is_snapshot) !== true)
    throw new Error(
      `vplatform: cloneFrom.snapshot: '${key}' is the key of VM '${str(src.name)}', not of a snapshot; write cloneFrom: { vm: "${key}" } to clone the VM as it is now`,
    );
  const ref = { vmKey: str(src.$key), machineKey: str(src.machine), name: str(src.name) };
  if (clone.snapshot === undefined) rememberVmRef(api, ref);
  const params = toCloneParams(clone);
  return { source: { ...ref, params }, settings: src, tree: cloneTreeOf(api, ref, params) };
}

/**
 * Clones through the source's tree: from the source itself or from a clone
 * of it that is still pristine (see cloneTree.ts), one clone per seed at a
 * time. A clone made now seeds the clones still waiting before its create
 * goes on to customize it.
 */
async function cloneThroughTree(api: Session, clone: ResolvedClone, body: Row, t: OperationTimeouts, marker: string) {
  const seed = await clone.tree.take();
  let inserted: Awaited<ReturnType<typeof insertVm>>;
  try {
    inserted = await api.withMachineLock(seed.machineKey, () => insertVm(api, body, { ...clone.source, ...seed }, t, marker));
  } finally {
    clone.tree.give(seed);
  }
  // A clone an earlier run made may have been customized already: it seeds nothing.
  if (!inserted.recovered) await clone.tree.offer(inserted);
  return inserted;
}

/**
 * A clone starts as a copy of its source: the declared settings and files
 * are applied afterwards, so one `up` converges (a clone declaring more RAM
 * than its template gets it now, not at the next run). A clone made now has
 * its source's settings (the platform copies them; name, description and
 * cluster come from the clone's params), so it is not read; one an earlier
 * run made is.
 */
async function applyDeclaredToClone(api: Session, vm: VmRef & { recovered: boolean }, inputs: VirtualMachineInputs, clone: ResolvedClone) {
  let row: Row;
  if (vm.recovered) {
    const live = await readVm(api, vm.vmKey, virtualMachineRows.readFields);
    if (!live) throw new Error(`vplatform: the clone '${vm.name}' disappeared right after cloning`);
    row = withoutTag(live.row);
  } else {
    const { params } = clone.source;
    row = { ...clone.settings, name: vm.name, description: params.description ?? inputs.description };
    if (params.cluster !== undefined) row.cluster = params.cluster;
  }
  const asCloned = { ...inputs, ...virtualMachineRows.fromApiRow(row, inputs) };
  const body = apiUpdateBody(virtualMachineShape, diffVirtualMachine(asCloned, inputs), inputs);
  if (Object.keys(body).length > 0) await api.update(VM_TABLE, vm.vmKey, body);
  if (inputs.cloudinitFiles) await syncCloudinitFiles(api, vm.vmKey, inputs.cloudinitFiles);
}

/** Undo a create that failed after the row existed; if even that fails, let Pulumi record the VM. */
async function rollback(api: Session, vm: VmRef, inputs: VirtualMachineInputs, t: OperationTimeouts, cause: unknown): Promise<never> {
  console.log(`vplatform: creating VM '${vm.name}' failed after the VM existed (${errorText(cause)}); deleting it again`);
  try {
    await deleteVm(api, vm, await readMachineStatus(api, vm.machineKey), t);
  } catch (undoErr) {
    throw new PartialCreateError(
      `vplatform: creating VM '${vm.name}' failed (${errorText(cause)}) and deleting it again failed too (${errorText(undoErr)})`,
      vm.vmKey,
      { ...inputs, machineKey: vm.machineKey, powerState: "stopped", status: "unknown", running: false, needRestart: false },
    );
  }
  throw cause;
}

/**
 * A VM an earlier, interrupted create made: its live power is the truth from
 * here on. A plain VM that differs from the declaration is recorded as
 * partially created (the next update converges it); a clone gets the declared
 * settings applied next anyway.
 */
async function recoveredVmStatus(api: Session, vm: VmRef, inputs: VirtualMachineInputs): Promise<MachineStatus> {
  const live = await readVm(api, vm.vmKey, virtualMachineRows.readFields);
  if (!live) throw new Error(`vplatform: VM '${vm.name}' (key ${vm.vmKey}) disappeared right after it was found; re-run \`pulumi up\``);
  if (!inputs.cloneFrom) {
    const asInputs = virtualMachineRows.fromApiRow(withoutTag(live.row), inputs);
    const outs = outputs(
      { ...inputs, ...asInputs, powerState: live.status.running ? "running" : "stopped" } as VirtualMachineInputs,
      vm,
      live.status,
    );
    assertRecoveredMatches(`VM '${vm.name}'`, inputs, asInputs, vm.vmKey, outs);
  }
  return live.status;
}

/** Finds the VM `adopt` names: by key (never a snapshot) or by the declared name. */
function findVmToAdopt(api: Session, inputs: VirtualMachineInputs & { adopt: true | string }): Promise<LiveVm> {
  return findAdoptable(`VM '${inputs.name}'`, inputs.adopt, {
    byKey: async (key) => {
      const live = await readVm(api, key, `${virtualMachineRows.readFields},is_snapshot`);
      if (live && toBoolean(live.row.is_snapshot) === true)
        throw new Error(`vplatform: adopt: '${key}' is the key of a snapshot, not of a VM`);
      return live;
    },
    byName: () => findVmByName(api, inputs.name, virtualMachineRows.readFields),
  });
}

/**
 * What the preview says beyond the field list: which changes restart the VM
 * and which wait for its next start. A VM whose power this resource manages is
 * judged from the state recorded at the last update or refresh; otherwise
 * (power left alone, or managed by a VmPower as in YAML environments) it may be
 * running, and the preview says what happens if it is. Under powerCyclePolicy
 * "refuse" the preview fails unless the last read found it stopped, as with a
 * declared powerState: a refused restart belongs in the plan, not in the `up`
 * after the merge. The update re-reads the live state.
 */
function previewVmDiff(olds: VirtualMachineOutputs, news: VirtualMachineInputs): ResourceDiff {
  const recorded = olds.powerState !== undefined;
  const live: LiveVmState = { running: recorded ? olds.running === true : true, allowHotplug: olds.allowHotplug !== false };
  const plan = planVmUpdate(olds, news, live);
  if (plan.diff.replaces.length > 0) return plan.diff;
  // A VmPower declaring it running started it after the create that recorded it stopped: judged running.
  const declaredRunning = (news as Record<string, unknown>)[POWER_BY_VMPOWER_INPUT] === "running";
  if (!plan.ok && (recorded || olds.running !== false || declaredRunning)) {
    const judged =
      declaredRunning && !recorded ? "judged running, as the file declares it" : "judged from the VM's last recorded power state";
    throw new Error(`vplatform: ${plan.error} (${judged}; ${settingNaming().refresh} if it changed outside Pulumi)`);
  }
  if (!plan.ok)
    return { ...plan.diff, warnings: [...plan.diff.warnings, `if the VM is running at update time, the update fails: ${plan.error}`] };
  const t = resolveTimeouts(news.timeouts);
  const restart = `the VM will be RESTARTED (graceful shutdown, forced after ${t.gracefulShutdown}s)`;
  const lines = plan.restart ? [`${plan.restart}: ${recorded ? restart : `if it is running then, ${restart}`}`] : [];
  // Named where a reader of the plan sees it: what a refresh found that no declaration made.
  if (news.exclusiveHardware === true && olds.strayHardware)
    lines.push(`VM '${news.name}' has hardware its program does not declare; the update removes it: ${olds.strayHardware}`);
  return { ...plan.diff, warnings: [...plan.warnings, ...lines] };
}

/** Runs the planned steps in order; resolves to the machine status afterwards. */
async function runVmSteps(api: Session, vm: VmRef, steps: VmStep[], status: MachineStatus, t: OperationTimeouts): Promise<MachineStatus> {
  const power = powerTimeouts(t);
  for (const step of steps) {
    switch (step.kind) {
      case "put":
        await api.update(VM_TABLE, vm.vmKey, step.body);
        break;
      case "setNote":
        await setVmNote(api, vm, step.text);
        break;
      case "syncCloudinitFiles":
        await syncCloudinitFiles(api, vm.vmKey, step.files);
        break;
      case "powerOff":
        console.log(`vplatform: stopping VM '${vm.name}': ${step.reason}`);
        await powerOff(api, vm, power);
        status = statusOf(false);
        break;
      case "powerOn":
        console.log(`vplatform: starting VM '${vm.name}': ${step.reason}`);
        await powerOn(api, vm, power);
        status = statusOf(true);
        break;
      case "powerCycle":
        console.log(`vplatform: restarting VM '${vm.name}': ${step.reason}`);
        await powerOff(api, vm, power);
        await powerOn(api, vm, power);
        status = statusOf(true);
        break;
    }
  }
  return status;
}

/**
 * With exclusiveHardware: the stray drives and NICs are removed (as the VM's power-cycle policy says). Declared only
 * now (an existing VM, a lab made by an earlier release), what the VM holds becomes its baseline and nothing is removed.
 */
async function keepHardwareExclusive(
  api: Session,
  vm: VmRef,
  olds: VirtualMachineOutputs,
  news: VirtualMachineInputs,
  t: OperationTimeouts,
): Promise<HardwareOutputs> {
  if (news.exclusiveHardware !== true) return {};
  const held = await machineHardware(api, vm.machineKey);
  if (olds.baselineHardware === undefined) return { baselineHardware: formatBaseline(held.filter((r) => !r.marked)), strayHardware: "" };
  const policy = (news.powerCyclePolicy ?? "restart") as "restart" | "refuse";
  await removeStrays(api, vm.machineKey, strayHardware(held, olds.baselineHardware), policy, t);
  return { baselineHardware: olds.baselineHardware, strayHardware: "" };
}

/** VM names are unique on the platform; a VM's snapshots (VM rows too) never clash. */
const VM_NAMES: NameTakenRule = {
  table: VM_TABLE,
  noun: nounOf("VirtualMachine"),
  shape: virtualMachineShape,
  listedFields: VM_CHECK_FIELDS,
  notOfKind: (row) => toBoolean(row.is_snapshot) === true,
  marked: true,
};

export const virtualMachine = defineResource<VirtualMachineInputs, VirtualMachineOutputs>({
  token: "VirtualMachine",
  table: VM_TABLE,
  description: "A virtual machine. `id` is the VM key; its hardware attaches to `machineKey`.",
  outputs: virtualMachineOutputs,
  schema: virtualMachineInputsSchema,
  sdk: { refuseDuplicateNames: "inProgram", ownsMachine: true },
  refreshListing: VM_TABLE,
  verify: (api, inputs, unknown, olds) => verifyNameFree(VM_NAMES, api, inputs, unknown, olds),
  diff: (_id, olds, news) => previewVmDiff(olds, news),

  async create(api, inputs) {
    const t = resolveTimeouts(inputs.timeouts);
    let vm: VmRef;
    let status: MachineStatus = statusOf(false); // a new VM starts stopped
    let clone: ResolvedClone | undefined;
    let recovered = false;
    const adopt = inputs.adopt;
    if (adopt) {
      const live = await findVmToAdopt(api, { ...inputs, adopt });
      assertAdoptable(`VM '${inputs.name}'`, inputs, virtualMachineRows.fromApiRow(withoutTag(live.row), inputs));
      ({ ref: vm, status } = live);
    } else {
      try {
        clone = await resolveCloneSource(api, inputs);
        const body = virtualMachineRows.toApiBody(inputs);
        const inserted = clone
          ? await cloneThroughTree(api, clone, body, t, markerOf(inputs))
          : await insertVm(api, body, undefined, t, markerOf(inputs));
        vm = inserted;
        recovered = inserted.recovered;
        // A machine made now, a clone's too, holds no row of an earlier run (a clone's copied hardware carries its template's markers).
        if (inserted.recovered) status = await recoveredVmStatus(api, vm, inputs);
        else rememberMadeHere(api, vm.machineKey);
      } catch (err) {
        if (!isNameConflict(err)) throw err;
        throw new Error(
          `vplatform: creating VM '${inputs.name}': the name is taken by a VM this stack did not create (${errorText(err)}); ` +
            `free the name (rename or delete that VM), rename this one, or set adopt: true (or its key) to take it over`,
        );
      }
    }
    return api.withMachineLock(vm.machineKey, async () => {
      try {
        if (clone && !adopt) await applyDeclaredToClone(api, { ...vm, recovered }, inputs, clone);
        if (inputs.note !== undefined && !adopt) await setVmNote(api, vm, String(inputs.note));
        const desired = inputs.powerState as PowerState | undefined;
        // The SDK's start step starts it after its hardware, attached cold meanwhile (no hot-plug, no power cycle).
        const startedLater = desired === "running" && !adopt && (inputs as Record<string, unknown>)[START_AFTER_HARDWARE_INPUT] === true;
        await enforcePower(api, vm, status, startedLater ? undefined : desired, t);
        const after = desired ? statusOf(desired === "running") : status;
        const hardware = await baselineAtCreate(api, vm, inputs, { adopted: Boolean(adopt), recovered, clonedFrom: clone?.source });
        // Its hardware needs no look-up of it; the status recorded is the one the run ends with.
        rememberVm(api, vm, startedLater ? status : after, inputs.allowHotplug as boolean | undefined);
        return { id: vm.vmKey, outs: outputs(inputs, vm, after, false, hardware) };
      } catch (err) {
        if (adopt) throw err;
        return rollback(api, vm, inputs, t, err);
      }
    });
  },

  async read(api, id, olds) {
    const live = await readVm(api, id, `${virtualMachineRows.readFields},need_restart`);
    if (!live) return undefined;
    rememberVm(api, live.ref, live.status, toBoolean(live.row.allow_hotplug) as boolean | undefined);
    const inputs = await liveInputs(api, live, olds);
    let hardware: HardwareOutputs = {};
    if (olds.exclusiveHardware === true) {
      // Drift: a drive or NIC no declaration made (nor the clone copied) shows as exclusiveHardware false.
      const strays = strayHardware(await machineHardware(api, live.ref.machineKey), olds.baselineHardware);
      inputs.exclusiveHardware = strays.length === 0;
      hardware = { baselineHardware: olds.baselineHardware ?? "", strayHardware: describeStrays(strays) };
    }
    return { outs: outputs(inputs, live.ref, live.status, toBoolean(live.row.need_restart) === true, hardware), inputs };
  },

  async update(api, id, olds, news) {
    const t = resolveTimeouts(news.timeouts);
    forgetVm(api, { vmKey: id, machineKey: olds.machineKey }); // its settings (allow_hotplug) and name may change
    cloneSources(api).delete(id); // a clone of it made later starts with its new settings
    return api.withMachineLock(olds.machineKey, async () => {
      // One request for both what the plan depends on: live power and allow_hotplug.
      const live = await readVm(api, id, "allow_hotplug");
      if (!live)
        throw new Error(`vplatform: VM '${news.name}' (key ${id}) no longer exists; run \`pulumi refresh\` to drop it from the state`);
      const vm: VmRef = { ...live.ref, name: news.name };
      if (news.powerState) api.forgetOwedStart(vm.machineKey); // the plan brings about the declared state
      const plan = planVmUpdate(olds, news, { running: live.status.running, allowHotplug: toBoolean(live.row.allow_hotplug) === true });
      if (!plan.ok) throw new Error(`vplatform: ${plan.error}`);
      for (const warning of plan.warnings) console.log(`vplatform: ${warning}`);
      const status = await runVmSteps(api, vm, plan.steps, live.status, t);
      return outputs(news, vm, status, false, await keepHardwareExclusive(api, vm, olds, news, t));
    });
  },

  async delete(api, id, olds) {
    const t = resolveTimeouts(olds.timeouts);
    // Recorded while it runs: a vnet its NICs keep in use waits for it, and fails at once if it fails.
    await machineDeletions(api).run(olds.machineKey, `VM '${olds.name ?? id}'`, () =>
      api.withMachineLock(olds.machineKey, async () => {
        const live = await readVm(api, id, "name");
        if (!live) return; // already gone
        await deleteVm(api, live.ref, live.status, t);
      }),
    );
  },
});
