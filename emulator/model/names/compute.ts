/** The compute service's table names, each written only here (test/emulator/tableNames.test.ts): `COMPUTE.vms`. */
import type { RowEvent } from "../events";
import { tableNames } from "../tableNames";

export const COMPUTE = tableNames(
  "vms",
  "vm_actions",
  "machines",
  "machine_status",
  "machine_stats",
  "machine_stats_history_short",
  "machine_stats_history_long",
  "machine_drives",
  "machine_drive_status",
  "machine_nics",
  "machine_nic_status",
  "machine_devices",
  "machine_device_status",
  "machine_snapshots",
  "cloudinit_files",
  "note_actions",
);

/** What the bus tells of a VM beyond its row's changes (the logs and tasks listen). */
export const VM_EVENTS = {
  poweron: `${COMPUTE.vms}.poweron`,
  poweroff: `${COMPUTE.vms}.poweroff`,
  cloned: `${COMPUTE.vms}.cloned`,
  snapshot: `${COMPUTE.vms}.snapshot`,
  restored: `${COMPUTE.vms}.restored`,
} as const;
export type VmEvent = (typeof VM_EVENTS)[keyof typeof VM_EVENTS];

/** What the bus tells of these tables: their rows' changes and a VM's own events. */
export type ComputeEvent = RowEvent<keyof typeof COMPUTE> | VmEvent;
declare module "../events" {
  interface ServiceEvents {
    compute: ComputeEvent;
  }
}
