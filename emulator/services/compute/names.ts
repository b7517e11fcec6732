/** The names of the VMs, their machines, hardware, snapshots, cloud-init files and notes tables: the only place they are written (test/emulator/tableNames.test.ts). */
import type { RowEvent } from "../../model/events";

export const VMS = "vms";
export const VM_ACTIONS = "vm_actions";
export const MACHINES = "machines";
export const MACHINE_STATUS = "machine_status";
export const MACHINE_STATS = "machine_stats";
export const MACHINE_STATS_HISTORY_SHORT = "machine_stats_history_short";
export const MACHINE_STATS_HISTORY_LONG = "machine_stats_history_long";
export const MACHINE_DRIVES = "machine_drives";
export const MACHINE_DRIVE_STATUS = "machine_drive_status";
export const MACHINE_NICS = "machine_nics";
export const MACHINE_NIC_STATUS = "machine_nic_status";
export const MACHINE_DEVICES = "machine_devices";
export const MACHINE_DEVICE_STATUS = "machine_device_status";
export const MACHINE_SNAPSHOTS = "machine_snapshots";
export const CLOUDINIT_FILES = "cloudinit_files";
export const NOTE_ACTIONS = "note_actions";

export type ComputeTable =
  | typeof VMS
  | typeof VM_ACTIONS
  | typeof MACHINES
  | typeof MACHINE_STATUS
  | typeof MACHINE_STATS
  | typeof MACHINE_STATS_HISTORY_SHORT
  | typeof MACHINE_STATS_HISTORY_LONG
  | typeof MACHINE_DRIVES
  | typeof MACHINE_DRIVE_STATUS
  | typeof MACHINE_NICS
  | typeof MACHINE_NIC_STATUS
  | typeof MACHINE_DEVICES
  | typeof MACHINE_DEVICE_STATUS
  | typeof MACHINE_SNAPSHOTS
  | typeof CLOUDINIT_FILES
  | typeof NOTE_ACTIONS;

/** What the bus tells of a VM beyond its row's changes (the logs and tasks listen). */
export const VM_EVENTS = {
  poweron: `${VMS}.poweron`,
  poweroff: `${VMS}.poweroff`,
  cloned: `${VMS}.cloned`,
  snapshot: `${VMS}.snapshot`,
  restored: `${VMS}.restored`,
} as const;
export type VmEvent = (typeof VM_EVENTS)[keyof typeof VM_EVENTS];

export type ComputeEvent = RowEvent<ComputeTable> | VmEvent;
