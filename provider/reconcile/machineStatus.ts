import { PlatformApi, str } from "./platform";
import { Clock, pollUntil } from "./waitFor";

/** Live runtime state of a machine, read from machine_status (never the powerstate column). */
export interface MachineStatus {
  running: boolean;
  status: string;
}

/** Status values of clone, snapshot and restore: the operation is finished when none holds. */
export const LONG_OPERATION_STATUSES = ["cloning", "snapshotting", "restoring"] as const;

export const isIdle = (s: MachineStatus): boolean =>
  !(LONG_OPERATION_STATUSES as readonly string[]).includes(s.status);
export const isRunning = (s: MachineStatus): boolean => s.running && s.status === "running";
export const isStopped = (s: MachineStatus): boolean => !s.running && s.status === "stopped";

export function toMachineStatus(row: { running?: unknown; status?: unknown }): MachineStatus {
  return { running: row.running === true || row.running === "true", status: str(row.status) || "unknown" };
}

export async function readMachineStatus(api: PlatformApi, machineKey: string): Promise<MachineStatus> {
  const row = await api.get("machine_status", machineKey, "running,status");
  if (!row) throw new Error(`vplatform: machine ${machineKey} has no status row (was the VM deleted?)`);
  return toMachineStatus(row);
}

export interface MachineWait {
  timeoutSec: number;
  /** e.g. "VM 'web' to reach running" */
  label: string;
  timeoutInput?: string;
  clock?: Clock;
}

export function waitForMachineStatus(
  api: PlatformApi,
  machineKey: string,
  predicate: (s: MachineStatus) => boolean,
  opts: MachineWait,
): Promise<MachineStatus> {
  return pollUntil(() => readMachineStatus(api, machineKey), predicate, (s) => `status ${s.status}`, opts);
}
