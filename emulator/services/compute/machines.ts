/**
 * `machines` (the hardware side of a VM, created with it) and
 * `machine_status` (read-only runtime data, one row per machine, keyed by the
 * machine key) and `machine_stats` (its usage, same key). All are maintained by the emulator only.
 */
import type { EmulatorContext } from "../../engine/context";
import {
  dropStatsHistory,
  HISTORY_FIGURES,
  type MachineFigures,
  machineFigures,
  recordStatsHistory,
  STATS_HISTORY,
  type StatsHistoryTable,
} from "./machineStats";
import { stoppedFields } from "./machineState";
import { options } from "../../model/options";
import type { FieldDef, Row, TableDef } from "../../model/types";
import { listedRows, table } from "../../model/tableParts";
import { COMPUTE } from "../../model/names/compute";
import { CLUSTER } from "../../model/names/cluster";
import { NETWORK } from "../../model/names/network";

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

/** A figure of the VM owning the machine, or of the node it is; null for a vnet's. */
function ownerFigure(ctx: EmulatorContext, row: Row, vmField: string, nodeField: string): unknown {
  if (row.vm !== null && row.vm !== undefined) return ctx.get(COMPUTE.vms, row.vm)?.[vmField] ?? null;
  if (row.node !== null && row.node !== undefined) return ctx.get(CLUSTER.nodes, row.node)?.[nodeField] ?? null;
  return null;
}

export const machinesTable = table(COMPUTE.machines, {
  description: "machine rows: the hardware of a VM (drives, NICs, devices) and its runtime status",
  keyType: "int",
  // On a real platform machine keys never line up with VM keys (tenants and services own machines too);
  // starting elsewhere keeps a VM key passed as a machine key from working by accident.
  firstKey: 100,
  operations: ["list", "get"],
  fields: {
    name: { type: "string", readOnly: true, summary: true },
    vm: { type: "row", ref: COMPUTE.vms, readOnly: true, description: "VM owning this machine" },
    vnet: { type: "row", ref: NETWORK.vnets, readOnly: true, description: "vnet this machine runs (its router), else null" },
    node: {
      type: "row",
      ref: CLUSTER.nodes,
      readOnly: true,
      default: null,
      description: "the node this machine is (a node's own machine), else null",
    },
    cluster: { type: "row", ref: CLUSTER.clusters, readOnly: true },
    status: { type: "row", ref: COMPUTE.machine_status, readOnly: true, description: "runtime status (same key)" },
    cores: {
      type: "uint16",
      compute: (ctx, row) => ownerFigure(ctx, row, "cpu_cores", "cores"),
      description: "the VM's cores (a node's: its own)",
    },
    ram: {
      type: "uint32",
      compute: (ctx, row) => ownerFigure(ctx, row, "ram", "ram"),
      description: "the VM's RAM (MB) (a node's: its own)",
    },
    stats: { type: "row", ref: COMPUTE.machine_stats, compute: (_ctx, row) => row.$key, description: "live usage figures (same key)" },
    created: { type: "created", readOnly: true },
    ha_group: { type: "string", compute: (ctx, row) => (row.vm === null ? "" : (ctx.get(COMPUTE.vms, row.vm)?.ha_group ?? "")) },
    snapshot_profile: {
      type: "row",
      readOnly: true,
      compute: (ctx, row) => (row.vm === null ? null : (ctx.get(COMPUTE.vms, row.vm)?.snapshot_profile ?? null)),
    },
    drives: { type: "rows", ref: COMPUTE.machine_drives, via: "machine" },
    nics: { type: "rows", ref: COMPUTE.machine_nics, via: "machine" },
    devices: { type: "rows", ref: COMPUTE.machine_devices, via: "machine" },
    snapshots: { type: "rows", ref: COMPUTE.machine_snapshots, via: "machine" },
  },
});

const ro = true;
export const machineStatusTable = table(COMPUTE.machine_status, {
  description: "read-only runtime data of a machine, keyed by the machine key",
  ...listedRows("int"),
  defaultFields: ["machine", "running", "powerstate", "status", "status_info", "state", "node"],
  fields: {
    machine: { type: "row", ref: COMPUTE.machines, readOnly: ro, summary: true },
    running: { type: "bool", readOnly: ro, summary: true },
    powerstate: { type: "bool", readOnly: ro, summary: true },
    status: { type: "string", readOnly: ro, summary: true, enum: options(STATUSES) },
    status_info: { type: "string", readOnly: ro },
    state: { type: "string", readOnly: ro, enum: { online: "Online", offline: "Offline", warning: "Warning", error: "Error" } },
    node: { type: "row", ref: CLUSTER.nodes, readOnly: ro, description: "node running the machine; null when stopped" },
    migratable: { type: "bool", readOnly: ro },
    migrated_node: { type: "row", ref: CLUSTER.nodes, readOnly: ro },
    migration_destination: { type: "row", ref: CLUSTER.nodes, readOnly: ro },
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
});

/** One figure of `machineFigures`, computed at read time. */
function figure(name: keyof MachineFigures, description?: string): FieldDef {
  return { type: name === "core_usagelist" ? "json" : "uint32", compute: (ctx, row) => machineFigures(ctx, row.$key)[name], description };
}

export const machineStatsTable = table(COMPUTE.machine_stats, {
  description: "live usage of a machine (VM, vnet router or node), keyed by the machine key; follows its power state",
  ...listedRows("int"),
  fields: {
    machine: { type: "row", ref: COMPUTE.machines, readOnly: true, compute: (_ctx, row) => row.$key, summary: true },
    ...Object.fromEntries(HISTORY_FIGURES.map((name) => [name, figure(name)])),
    total_cpu: figure("total_cpu", "percent of the machine's cores"),
    vmusage_cpu: figure("vmusage_cpu", "a node's: percent used by its machines"),
    ram_used: figure("ram_used", "MB"),
    ram_pct: figure("ram_pct"),
    vram_used: figure("vram_used", "MB of GPU memory"),
    core_temp: figure("core_temp", "°C; 0 when stopped"),
    core_usagelist: figure("core_usagelist", "percent used of each running core"),
    modified: { type: "uint64", compute: (ctx, row) => ctx.get(COMPUTE.machine_status, row.$key)?.last_update ?? 0 },
    timestamp: { type: "uint64", compute: (ctx) => ctx.nowSeconds() },
  },
});

/** `machine_stats_history_short` / `_long`: samples of `machine_stats` on the emulator's clock (see machineStats.ts). */
function statsHistoryTable(name: StatsHistoryTable): TableDef {
  const { everyS, keep } = STATS_HISTORY[name];
  return {
    name,
    description: `a sample of each machine's usage every ${everyS} s of platform time, the last ${keep} kept (read-only)`,
    keyType: "int",
    transient: true,
    operations: ["list", "get"],
    fields: {
      machine: { type: "row", ref: COMPUTE.machines, readOnly: true, summary: true },
      timestamp: { type: "uint64", readOnly: true, summary: true, description: "seconds since the epoch" },
      ...Object.fromEntries(HISTORY_FIGURES.map((f) => [f, { type: "uint32", readOnly: true } satisfies FieldDef])),
    },
    beforeRead: recordStatsHistory,
  };
}
export const machineStatsHistoryShortTable = statsHistoryTable(COMPUTE.machine_stats_history_short);
export const machineStatsHistoryLongTable = statsHistoryTable(COMPUTE.machine_stats_history_long);

/**
 * Creates the machine of a VM, a vnet or a node with its status row (stopped; a node's runs, on itself, holding
 * none of its own cores or RAM); returns the machine key.
 */
export function createMachineFor(ctx: EmulatorContext, owner: Row, kind: "vm" | "vnet" | "node" = "vm"): number {
  const machine = ctx.insert(COMPUTE.machines, {
    name: owner.name,
    vm: kind === "vm" ? owner.$key : null,
    vnet: kind === "vnet" ? owner.$key : null,
    node: kind === "node" ? owner.$key : null,
    cluster: owner.cluster ?? null,
    created: ctx.nowSeconds(),
  });
  ctx.update(COMPUTE.machines, machine.$key, { status: machine.$key });
  const running = { running: true, powerstate: true, status: "running", state: "online", node: owner.$key, migratable: false };
  ctx.insert(COMPUTE.machine_status, {
    $key: machine.$key,
    machine: machine.$key,
    ...stoppedFields(),
    ...(kind === "node" ? running : {}),
    migrated_node: null,
    migration_destination: null,
    started: 0,
    last_update: ctx.nowSeconds(),
    config: {},
  });
  ctx.insert(COMPUTE.machine_stats, { $key: machine.$key });
  return machine.$key as number;
}

/** Removes a machine with everything hanging off it (drives, NICs, devices, status rows, snapshot records). */
export function deleteMachine(ctx: EmulatorContext, machine: unknown): void {
  for (const drive of ctx.find(COMPUTE.machine_drives, (d) => d.machine === machine)) {
    ctx.remove(COMPUTE.machine_drives, drive.$key);
    ctx.remove(COMPUTE.machine_drive_status, drive.$key);
  }
  for (const nic of ctx.find(COMPUTE.machine_nics, (n) => n.machine === machine)) {
    ctx.remove(COMPUTE.machine_nics, nic.$key);
    ctx.remove(COMPUTE.machine_nic_status, nic.$key);
  }
  for (const device of ctx.find(COMPUTE.machine_devices, (d) => d.machine === machine)) {
    ctx.remove(COMPUTE.machine_devices, device.$key);
    ctx.remove(COMPUTE.machine_device_status, device.$key);
  }
  for (const snap of ctx.find(COMPUTE.machine_snapshots, (s) => s.machine === machine)) ctx.remove(COMPUTE.machine_snapshots, snap.$key);
  ctx.remove(COMPUTE.machine_status, machine as number);
  ctx.remove(COMPUTE.machine_stats, machine as number);
  dropStatsHistory(ctx, machine as number);
  ctx.remove(COMPUTE.machines, machine as number);
}
