import type { Session } from "./session";
import { type Row, str } from "./platform";
import { waitForRow } from "./statusPoller";
import type { Clock } from "./waitFor";
import { MACHINE_STATUS_TABLE } from "../schemas/tables";

/** Live runtime state of a machine, read from machine_status (never the powerstate column). */
export interface MachineStatus {
  running: boolean;
  status: string;
  /** Unix seconds of the status row's last change, where read (looks read it; waits do not). */
  lastUpdate?: number;
}

/** Status values of clone, snapshot and restore: the operation is finished when none holds. */
export const LONG_OPERATION_STATUSES = ["cloning", "snapshotting", "restoring"] as const;

export const isIdle = (s: MachineStatus): boolean => !(LONG_OPERATION_STATUSES as readonly string[]).includes(s.status);
export const isRunning = (s: MachineStatus): boolean => s.running && s.status === "running";
export const isStopped = (s: MachineStatus): boolean => !s.running && s.status === "stopped";

export function toMachineStatus(row: { running?: unknown; status?: unknown; last_update?: unknown }): MachineStatus {
  const status = { running: row.running === true || row.running === "true", status: str(row.status) || "unknown" };
  return row.last_update === undefined ? status : { ...status, lastUpdate: Number(row.last_update) };
}

const STATUS_FIELDS = "running,status";
const LOOK_FIELDS = `${STATUS_FIELDS},last_update`;

function statusOfRow(machineKey: string, row: Row | undefined): MachineStatus {
  if (!row) throw new Error(`vplatform: machine ${machineKey} has no status row (was the VM deleted?)`);
  return toMachineStatus(row);
}

export async function readMachineStatus(api: Session, machineKey: string): Promise<MachineStatus> {
  return statusOfRow(machineKey, await api.get(MACHINE_STATUS_TABLE, machineKey, STATUS_FIELDS));
}

export interface MachineWait {
  /** The kind of change ("power-on", "shutdown", "clone"): waits of one kind teach the poller how long it takes. */
  kind: string;
  timeoutSec: number;
  /** e.g. "VM 'web' to reach running" */
  label: string;
  timeoutInput?: string;
  clock?: Clock;
}

/** Coalesced with every other machine-status wait of the process (see statusPoller). */
export async function waitForMachineStatus(
  api: Session,
  machineKey: string,
  predicate: (s: MachineStatus) => boolean,
  opts: MachineWait,
): Promise<MachineStatus> {
  const row = await waitForRow(
    api,
    MACHINE_STATUS_TABLE,
    STATUS_FIELDS,
    {
      key: machineKey,
      kind: opts.kind,
      done: (r) => predicate(statusOfRow(machineKey, r)),
      describe: (r) => `status ${r ? toMachineStatus(r).status : "gone"}`,
    },
    opts,
  );
  return statusOfRow(machineKey, row);
}

/** One read of the machine's status and its last change, through the shared poller (coalesced with other looks): did an action take? */
export async function lookAtMachineStatus(api: Session, machineKey: string, label: string, clock?: Clock): Promise<MachineStatus> {
  const wait = { key: machineKey, kind: "look", done: () => true, describe: () => "look" };
  return statusOfRow(machineKey, await waitForRow(api, MACHINE_STATUS_TABLE, LOOK_FIELDS, wait, { timeoutSec: 60, label, clock }));
}
