import type { Session } from "../../reconcile/session";
import { type MachineStatus, isIdle, toMachineStatus, waitForMachineStatus } from "../../reconcile/machineStatus";
import { hasTag, taggedDescription } from "../../reconcile/createMarker";
import { insertRow } from "../../reconcile/insertRow";
import { type Row, rowsWhere, str } from "../../reconcile/platform";
import { type VmRef, powerOff, powerOn, powerTimeouts, vmAction } from "../../reconcile/power";
import type { OperationTimeouts } from "../../schemas/timeouts";
import { forgetVm } from "../../reconcile/machineOwners";
import { type Clock, realClock } from "../../reconcile/waitFor";
import { quoteLiteral } from "../../client/query-string";
import { NOTE_ACTION_TABLE, VM_TABLE } from "../../schemas/tables";

/** Live power joined into the VM read, so a refresh costs one request. */
const LIVE_STATUS_FIELDS = "machine#status#running as live_running,machine#status#status as live_status";

export interface LiveVm {
  ref: VmRef;
  row: Row;
  status: MachineStatus;
}

function toLiveVm(row: Row): LiveVm {
  return {
    ref: { vmKey: str(row.$key), machineKey: str(row.machine), name: str(row.name) },
    row,
    status: toMachineStatus({ running: row.live_running, status: row.live_status }),
  };
}

/** `fields` = the VM columns the caller maps back to inputs. Undefined when the VM is gone. */
export async function readVm(api: Session, vmKey: string, fields: string): Promise<LiveVm | undefined> {
  const row = await api.get(VM_TABLE, vmKey, `$key,machine,name,${fields},${LIVE_STATUS_FIELDS}`);
  return row && toLiveVm(row);
}

export async function findVmByName(api: Session, name: string, fields: string): Promise<LiveVm | undefined> {
  const rows = await api.list(VM_TABLE, {
    filter: `name eq ${quoteLiteral(name)} and is_snapshot eq false`,
    fields: `$key,machine,name,created,${fields},${LIVE_STATUS_FIELDS}`,
    limit: 1,
  });
  return rows[0] && toLiveVm(rows[0]);
}

export interface CloneSource {
  vmKey: string;
  machineKey: string;
  name: string;
  /** vm_actions clone params other than name (quiesce, preserve_macs, ...). */
  params: Row;
}

/**
 * Makes the VM row: POST vms, or a clone of `source`, idempotently (see
 * insertRow): the description carries the create's marker, and a VM of the
 * declared name is ours only when it carries that marker. Resolves with
 * `recovered` when an earlier, interrupted attempt had made it.
 */
export async function insertVm(
  api: Session,
  body: Row,
  source: CloneSource | undefined,
  timeouts: OperationTimeouts,
  marker: string,
  clock: Clock = realClock,
): Promise<VmRef & { recovered: boolean; row?: Row }> {
  const name = str(body.name);
  // A clone's own description param, if given, is what the clone is described by.
  const description = taggedDescription(source?.params.description ?? body.description, marker);
  const findOurs = async () =>
    (await rowsWhere(api, VM_TABLE, "name", name, `$key,machine,name,created,description,is_snapshot,${LIVE_STATUS_FIELDS}`)).find(
      (row) => row.is_snapshot !== true && hasTag(row, marker),
    );
  const send = source
    ? async () => {
        const answer = await vmAction(api, { vmKey: source.vmKey, machineKey: source.machineKey, name: source.name }, "clone", {
          ...source.params,
          name,
          description,
        });
        const r = answer.response ?? {};
        return { $key: str(r.vmkey), response: { ...r, machine: r.machinekey } };
      }
    : () => api.create(VM_TABLE, { ...body, description });
  const what = source ? `VM '${name}' (clone of '${source.name}')` : `VM '${name}'`;
  // VM names are unique: a VM an interrupted run made answers the send with a name conflict, so no look goes first.
  const created = await insertRow(api, { table: VM_TABLE, body, what, findOurs, send, lookFirst: false }, timeouts.create * 1000, clock);
  if (source) {
    if (!created.recovered) api.madeRow(VM_TABLE, str(created.$key)); // a reference to it (a grant on it) needs no look-up
    await waitForCloneToFinish(api, source, timeouts, clock);
  }
  const machineKey = str(created.response?.machine);
  return {
    vmKey: str(created.$key),
    machineKey,
    name,
    recovered: created.recovered,
    row: created.recovered ? created.response : undefined,
  };
}

/** The clone finishes when the SOURCE machine leaves `cloning`. */
function waitForCloneToFinish(api: Session, source: CloneSource, t: OperationTimeouts, clock: Clock) {
  return waitForMachineStatus(api, source.machineKey, isIdle, {
    kind: "clone",
    timeoutSec: t.clone,
    label: `VM '${source.name}' to finish cloning`,
    timeoutInput: "clone",
    clock,
  });
}

export function setVmNote(api: Session, vm: VmRef, text: string) {
  return api.action(NOTE_ACTION_TABLE, { owner: `vms/${vm.vmKey}`, action: "update", params: { text } });
}

/** Brings live power to `desired`; graceful shutdown first. */
export async function enforcePower(
  api: Session,
  vm: VmRef,
  live: MachineStatus,
  desired: "running" | "stopped" | undefined,
  t: OperationTimeouts,
  clock: Clock = realClock,
): Promise<void> {
  if (desired) api.forgetOwedStart(vm.machineKey); // the declared state wins over restoring the earlier one
  if (desired === "running" && !live.running) await powerOn(api, vm, powerTimeouts(t), clock);
  if (desired === "stopped" && live.running) await powerOff(api, vm, powerTimeouts(t), clock);
}

/** A running VM is shut down (graceful, then kill) before its row is deleted. */
export async function deleteVm(
  api: Session,
  vm: VmRef,
  live: MachineStatus,
  t: OperationTimeouts,
  clock: Clock = realClock,
): Promise<void> {
  api.forgetOwedStart(vm.machineKey);
  forgetVm(api, vm);
  if (live.running) await powerOff(api, vm, powerTimeouts(t), clock);
  await api.remove(VM_TABLE, vm.vmKey);
}
