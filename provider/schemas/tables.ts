/**
 * The platform's tables the provider reads or writes (the spec's names), each written here once: a resource's
 * declaration, the reconcile steps, the look-ups and the SDK name a table by its constant. The bottom floor, so
 * that no lower module has to import a resource's folder for a table's name.
 */

/** VMs, and their snapshots (VM rows with is_snapshot). */
export const VM_TABLE = "vms";
/** Power, clone, snapshot and restore of a VM. */
export const VM_ACTION_TABLE = "vm_actions";
/** A VM's note, set through an action of its own. */
export const NOTE_ACTION_TABLE = "note_actions";
/** A machine's live runtime state (VMs and vnets). */
export const MACHINE_STATUS_TABLE = "machine_status";
export const DRIVE_TABLE = "machine_drives";
export const NIC_TABLE = "machine_nics";
export const DEVICE_TABLE = "machine_devices";
export const SNAPSHOT_TABLE = "machine_snapshots";
export const VNET_TABLE = "vnets";
/** Power, apply and restart of a vnet. */
export const VNET_ACTION_TABLE = "vnet_actions";
/** Media files (ISOs, disk images). */
export const FILE_TABLE = "files";
export const CLUSTER_TABLE = "clusters";
export const WEBHOOK_TABLE = "webhook_urls";
export const TASK_TABLE = "tasks";
export const EVENT_TRIGGER_TABLE = "task_events";
/** The event types the platform offers and the events of each. */
export const EVENT_CATALOG_TABLE = "task_event_types";
export const SCHEDULE_TABLE = "task_schedules";
/** The links of a schedule to the tasks it runs: (task, schedule). */
export const SCHEDULE_TRIGGER_TABLE = "task_schedule_triggers";
export const USER_TABLE = "users";
export const API_KEY_TABLE = "user_api_keys";
export const GROUP_TABLE = "groups";
/** Group memberships: a user or a group (`member`) inside a group (`parent_group`). */
export const MEMBER_TABLE = "members";
export const PERMISSION_TABLE = "permissions";
