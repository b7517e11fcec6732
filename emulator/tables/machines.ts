/**
 * `machines` (the hardware side of a VM, created with it) and
 * `machine_status` (read-only runtime data, one row per machine, keyed by the
 * machine key) and `machine_stats` (its usage, same key). All are maintained by the emulator only.
 */
import type { EmulatorContext } from "../core/context";
import { stoppedFields } from "../domain/machines";
import { options } from "./options";
import type { FieldDef, Row, TableDef } from "./types";

const STATUSES = [
  "initializing",
  "starting",
  "running",
  "stopping",
  "unresponsive",
  "stopped",
  "hibernated",
  "hibernating",
  "initmigrate",
  "startmigrate",
  "migrating",
  "migratecomplete",
  "importing",
  "maintenance",
  "leavingmaintenance",
  "unlicensed",
  "needsrefresh",
  "needsrestart",
  "waitingforresources",
  "error",
  "driversreloading",
  "cloning",
  "snapshotting",
  "restoring",
  "restarting",
];

export const machinesTable: TableDef = {
  name: "machines",
  description: "machine rows: the hardware of a VM (drives, NICs, devices) and its runtime status",
  keyType: "int",
  // On a real platform machine keys never line up with VM keys (tenants and services own machines too);
  // starting elsewhere keeps a VM key passed as a machine key from working by accident.
  firstKey: 100,
  operations: ["list", "get"],
  fields: {
    name: { type: "string", readOnly: true, summary: true },
    vm: { type: "row", ref: "vms", readOnly: true, description: "VM owning this machine" },
    vnet: { type: "row", ref: "vnets", readOnly: true, description: "vnet this machine runs (its router), else null" },
    cluster: { type: "row", ref: "clusters", readOnly: true },
    status: { type: "row", ref: "machine_status", readOnly: true, description: "runtime status (same key)" },
    cores: {
      type: "uint16",
      compute: (ctx, row) => (row.vm === null ? null : (ctx.get("vms", row.vm)?.cpu_cores ?? null)),
      description: "the VM's cores",
    },
    ram: {
      type: "uint32",
      compute: (ctx, row) => (row.vm === null ? null : (ctx.get("vms", row.vm)?.ram ?? null)),
      description: "the VM's RAM (MB)",
    },
    stats: { type: "row", ref: "machine_stats", compute: (_ctx, row) => row.$key, description: "live usage figures (same key)" },
    created: { type: "created", readOnly: true },
    ha_group: { type: "string", compute: (ctx, row) => (row.vm === null ? "" : (ctx.get("vms", row.vm)?.ha_group ?? "")) },
    snapshot_profile: {
      type: "row",
      readOnly: true,
      compute: (ctx, row) => (row.vm === null ? null : (ctx.get("vms", row.vm)?.snapshot_profile ?? null)),
    },
    drives: { type: "rows", ref: "machine_drives", via: "machine" },
    nics: { type: "rows", ref: "machine_nics", via: "machine" },
    devices: { type: "rows", ref: "machine_devices", via: "machine" },
    snapshots: { type: "rows", ref: "machine_snapshots", via: "machine" },
  },
};

const ro = true;
export const machineStatusTable: TableDef = {
  name: "machine_status",
  description: "read-only runtime data of a machine, keyed by the machine key",
  keyType: "int",
  operations: ["list", "get"],
  defaultFields: ["machine", "running", "powerstate", "status", "status_info", "state", "node"],
  fields: {
    machine: { type: "row", ref: "machines", readOnly: ro, summary: true },
    running: { type: "bool", readOnly: ro, summary: true },
    powerstate: { type: "bool", readOnly: ro, summary: true },
    status: { type: "string", readOnly: ro, summary: true, enum: options(STATUSES) },
    status_info: { type: "string", readOnly: ro },
    state: { type: "string", readOnly: ro, enum: { online: "Online", offline: "Offline", warning: "Warning", error: "Error" } },
    node: { type: "row", ref: "nodes", readOnly: ro, description: "node running the machine; null when stopped" },
    migratable: { type: "bool", readOnly: ro },
    migrated_node: { type: "row", ref: "nodes", readOnly: ro },
    migration_destination: { type: "row", ref: "nodes", readOnly: ro },
    started: { type: "uint64", readOnly: ro },
    last_update: { type: "uint64", readOnly: ro },
    local_time: { type: "uint64", readOnly: ro, compute: (ctx) => ctx.nowSeconds() },
    running_cores: { type: "uint16", readOnly: ro },
    running_ram: { type: "uint32", readOnly: ro },
    agent_version: { type: "string", readOnly: ro },
    agent_features: { type: "json", readOnly: ro },
    agent_guest_info: { type: "json", readOnly: ro },
    config: { type: "json", readOnly: ro, notInMost: true },
  },
};

/** The figures of a running machine; a stopped one has zeros (the emulator runs no guest, so the load is nominal). */
function runningFigure(figure: (status: Row) => number): FieldDef {
  return {
    type: "uint32",
    compute: (ctx, row) => {
      const status = ctx.get("machine_status", row.$key);
      return status?.running === true ? figure(status) : 0;
    },
  };
}

export const machineStatsTable: TableDef = {
  name: "machine_stats",
  description: "live usage of a machine, keyed by the machine key (nominal figures while running; zeros when stopped)",
  keyType: "int",
  operations: ["list", "get"],
  fields: {
    machine: { type: "row", ref: "machines", readOnly: true, compute: (_ctx, row) => row.$key, summary: true },
    total_cpu: { ...runningFigure(() => 5), description: "percent of the running cores" },
    user_cpu: runningFigure(() => 4),
    system_cpu: runningFigure(() => 1),
    iowait_cpu: runningFigure(() => 0),
    ram_used: { ...runningFigure((status) => Math.round(Number(status.running_ram ?? 0) / 4)), description: "MB" },
    ram_pct: runningFigure(() => 25),
    vram_used: { ...runningFigure(() => 0), description: "MB of GPU memory" },
    core_temp: { ...runningFigure(() => 45), description: "°C" },
    timestamp: { type: "uint64", compute: (ctx) => ctx.nowSeconds() },
  },
};

/** Creates the machine of a VM (or of a vnet) with its stopped status row; returns the machine key. */
export function createMachineFor(ctx: EmulatorContext, owner: Row, kind: "vm" | "vnet" = "vm"): number {
  const machine = ctx.insert("machines", {
    name: owner.name,
    vm: kind === "vm" ? owner.$key : null,
    vnet: kind === "vnet" ? owner.$key : null,
    cluster: owner.cluster ?? null,
    created: ctx.nowSeconds(),
  });
  ctx.update("machines", machine.$key, { status: machine.$key });
  ctx.insert("machine_status", {
    $key: machine.$key,
    machine: machine.$key,
    ...stoppedFields(),
    migrated_node: null,
    migration_destination: null,
    started: 0,
    last_update: ctx.nowSeconds(),
    config: {},
  });
  ctx.insert("machine_stats", { $key: machine.$key });
  return machine.$key as number;
}

/** Removes a machine with everything hanging off it (drives, NICs, devices, status rows, snapshot records). */
export function deleteMachine(ctx: EmulatorContext, machine: unknown): void {
  for (const drive of ctx.find("machine_drives", (d) => d.machine === machine)) {
    ctx.remove("machine_drives", drive.$key);
    ctx.remove("machine_drive_status", drive.$key);
  }
  for (const nic of ctx.find("machine_nics", (n) => n.machine === machine)) {
    ctx.remove("machine_nics", nic.$key);
    ctx.remove("machine_nic_status", nic.$key);
  }
  for (const device of ctx.find("machine_devices", (d) => d.machine === machine)) {
    ctx.remove("machine_devices", device.$key);
    ctx.remove("machine_device_status", device.$key);
  }
  for (const snap of ctx.find("machine_snapshots", (s) => s.machine === machine)) ctx.remove("machine_snapshots", snap.$key);
  ctx.remove("machine_status", machine as number);
  ctx.remove("machine_stats", machine as number);
  ctx.remove("machines", machine as number);
}
