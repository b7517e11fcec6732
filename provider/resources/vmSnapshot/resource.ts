import { perSession, type Session } from "../../reconcile/session";
import { answerReads } from "../../reconcile/gathering";
import { diffFields, named, type ResourceDiff } from "../../plan/diff";
import { withoutOutputs, type OutputValues } from "../../schemas/outputs";
import { type VmSnapshotInputs, toVmSnapshotApiParams, vmSnapshotInputsSchema, vmSnapshotOutputs, vmSnapshotShape } from "./schema";
import { isIdle, waitForMachineStatus } from "../../reconcile/machineStatus";
import { restoreSnapshot } from "../../reconcile/restore";
import { toBoolean } from "../../schemas/normalize";
import { hasTag, markerOf, taggedDescription } from "../../reconcile/createMarker";
import { insertRow } from "../../reconcile/insertRow";
import { errorText, type Row, rowsWhere, str } from "../../reconcile/platform";
import { type VmRef, vmAction } from "../../reconcile/power";
import { knownVmRef, madeByThisProcess, rememberVmRef } from "../../reconcile/machineOwners";
import { declaredFields } from "../framework/declaredFields";
import { PartialCreateError } from "../framework/defineProvider";
import { defineResource } from "../framework/defineResource";
import { resolveTimeouts } from "../framework/operationTimeouts";
import { MACHINE_STATUS_TABLE, SNAPSHOT_TABLE, VM_ACTION_TABLE, VM_TABLE } from "../../schemas/tables";
import { formatDurations, learnedDurations } from "../../reconcile/learnedDurations";

type Inputs = VmSnapshotInputs & { vm: string; name: string; description?: string; restoreTrigger?: unknown };
type Outputs = Inputs & OutputValues<typeof vmSnapshotOutputs>;

/** The VM's keys and name: known when this process created or read it (a lab's VM, snapshotted after its power-on). */
async function vmRef(api: Session, vmKey: string): Promise<VmRef> {
  const known = knownVmRef(api, vmKey);
  if (known) return known;
  const row = await api.get(VM_TABLE, vmKey, "$key,machine,name");
  if (!row) throw new Error(`vplatform: vm: no VM with key '${vmKey}'`);
  const ref = { vmKey, machineKey: str(row.machine), name: str(row.name) };
  rememberVmRef(api, ref);
  return ref;
}

/** What tells a VM's snapshot rows apart: name, marker tag, age. */
const SNAPSHOT_FIND_FIELDS = "$key,name,description,created,machine,is_snapshot";

/**
 * The snapshot a create with `marker` took: among the VM's rows (snapshots are VMs with is_snapshot true whose
 * parent_vm is the VM), the newest of the name that carries the marker.
 */
export function ourSnapshot(rows: readonly Row[], name: string, marker: string): Row | undefined {
  return rows
    .filter((r) => toBoolean(r.is_snapshot) === true && str(r.name) === name && hasTag(r, marker))
    .sort((a, b) => Number(b.created ?? 0) - Number(a.created ?? 0))[0];
}

/**
 * The VM's snapshots are read with those of the other VMs looked up meanwhile (a snapshot's answer has no key, so
 * each create reads it): a class's snapshots, seen finished by one status read, learn their keys in one GET.
 */
async function findSnapshot(api: Session, vmKey: string, name: string, marker: string) {
  return ourSnapshot(await rowsWhere(api, VM_TABLE, "parent_vm", vmKey, SNAPSHOT_FIND_FIELDS), name, marker);
}

/** What changing a vmSnapshot does: the preview's replacements, updates and warnings. */
export function diffVmSnapshot(olds: Row, news: Row): ResourceDiff {
  const what = named("snapshot", news);
  // Snapshot names need not be unique: the new snapshot exists before the old one goes (a restore point throughout).
  const d = diffFields(vmSnapshotShape, olds, news, { what, namesUniqueOnPlatform: false });
  if (d.updates.includes("restoreTrigger") && !d.noApiCall.includes("restoreTrigger") && d.replaces.length === 0) {
    d.warnings.push(`restoreTrigger changed: VM ${String(news.vm)} is RESTORED to ${what}; its changes since the snapshot are lost`);
  }
  return d;
}

/** The figures set when the snapshot was taken: an update keeps them (an output only, in no diff). */
const kept = (olds: Outputs): Pick<Outputs, "waitDurations"> =>
  olds.waitDurations === undefined ? {} : { waitDurations: olds.waitDurations };

/** A snapshot's answer has no key: the keys of a class's snapshots are read together (see answerReads). */
const keyReads = perSession(answerReads);

async function takeSnapshot(api: Session, inputs: Inputs, readTogether: () => Promise<void>): Promise<{ id: string; outs: Outputs }> {
  const vm = await vmRef(api, inputs.vm);
  const outs = { ...inputs, machineKey: vm.machineKey };
  return api.withMachineLock(vm.machineKey, async () => {
    // Names need not be unique: the snapshot carrying this create's marker is ours.
    const marker = markerOf(inputs);
    const taken = () => findSnapshot(api, vm.vmKey, inputs.name, marker);
    const t = resolveTimeouts(inputs.timeouts);
    const params = { ...toVmSnapshotApiParams(inputs), description: taggedDescription(inputs.description, marker) };
    try {
      await insertRow(
        api,
        {
          table: VM_ACTION_TABLE,
          body: params,
          what: `snapshot '${inputs.name}' of VM '${vm.name}'`,
          findOurs: taken,
          // A VM this process made has no snapshot an earlier run took: only a resend looks.
          lookFirst: !madeByThisProcess(api, vm.machineKey),
          send: async () => ({ $key: "", response: (await vmAction(api, vm, "snapshot", params)).response }),
        },
        t.snapshot * 1000,
      );
      await waitForMachineStatus(api, vm.machineKey, isIdle, {
        kind: "snapshot",
        timeoutSec: t.snapshot,
        label: `VM '${vm.name}' to finish snapshotting`,
        timeoutInput: "snapshot",
      });
    } catch (err) {
      const row = await taken().catch(() => undefined);
      if (!row) throw err;
      // The answer was lost or the wait gave up, but the snapshot exists: record it, never take a second one.
      throw new PartialCreateError(
        `vplatform: snapshot '${inputs.name}' of VM '${vm.name}' exists but ${errorText(err)}`,
        str(row.$key),
        outs,
      );
    }
    await readTogether(); // with the snapshots finishing meanwhile: their keys are one GET
    const row = await taken();
    if (!row) throw new Error(`vplatform: the snapshot '${inputs.name}' of VM '${vm.name}' finished but no snapshot row was found`);
    // What this session saw the VM's making take (its clone, its power-on): a first reset's prior of its restores.
    return {
      id: str(row.$key),
      outs: { ...outs, waitDurations: formatDurations(learnedDurations(api, MACHINE_STATUS_TABLE).knownAndBounds()) },
    };
  });
}

export const vmSnapshot = defineResource<Inputs, Outputs>({
  token: "VmSnapshot",
  table: SNAPSHOT_TABLE,
  description: "A snapshot of a VM; changing restoreTrigger restores the VM to it.",
  outputs: vmSnapshotOutputs,
  schema: vmSnapshotInputsSchema,
  // Its reads are of VM rows (a snapshot is one).
  refreshListing: VM_TABLE,
  diff: (_id, olds, news) => diffVmSnapshot(olds, news),

  async create(api, inputs) {
    return keyReads(api).around((readTogether) => takeSnapshot(api, inputs, readTogether));
  },

  async read(api, id, olds) {
    const row = await api.get(VM_TABLE, id, "$key,name,is_snapshot,parent_vm");
    if (row?.is_snapshot !== true) return undefined;
    const declared = withoutOutputs(olds, vmSnapshotOutputs);
    if (declaredFields(declared)) return { outs: olds, inputs: declared as Inputs };
    // Imported (nothing declared yet): the snapshot row names its VM.
    const inputs = { vm: str(row.parent_vm), name: str(row.name) } as Inputs;
    return { outs: { ...inputs, machineKey: (await vmRef(api, inputs.vm)).machineKey }, inputs };
  },

  /** Only restoreTrigger changes in place: a new value rolls the VM back to this snapshot. */
  async update(api, id, olds, news) {
    const d = diffVmSnapshot(olds, news);
    if (d.updates.includes("restoreTrigger") && !d.noApiCall.includes("restoreTrigger")) {
      // The VM as it is now: an earlier restore may have changed its machine.
      const vm = await vmRef(api, olds.vm);
      const restored = await api.withMachineLock(vm.machineKey, () => restoreSnapshot(api, vm, id, resolveTimeouts(news.timeouts).restore));
      return { ...news, machineKey: restored.machineKey, ...kept(olds) };
    }
    return { ...news, machineKey: olds.machineKey, ...kept(olds) };
  },

  async delete(api, id) {
    await api.remove(VM_TABLE, id);
  },
});
