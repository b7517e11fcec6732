/**
 * Usage figures of a machine (`machine_stats`) and their history (`machine_stats_history_short`/`_long`).
 * The emulator runs no guest, so a VM's load is nominal and follows its power state: a booting VM works
 * harder than a running one, a stopped one shows zeros. A node's own machine carries the load of the
 * machines running on it. History rows are sampled on the emulator's clock: whenever a history table is
 * read or a machine's status is about to change, the samples due since the last one are written with the
 * figures the machine had meanwhile.
 */
import type { EmulatorContext } from "../../engine/context";
import type { Row, RowKey } from "../../model/types";
import { COMPUTE } from "../../model/names/compute";
import { CLUSTER } from "../../model/names/cluster";

/** Percent of each running core a VM uses in a power state (nothing listed: 0). */
const VM_LOAD: Record<string, number> = { starting: 50, running: 5, stopping: 20, migrating: 30, restarting: 40 };
/** What the node's host itself uses beside its machines. */
const HOST = { cpuPct: 1, ramMb: 4096, idleTempC: 35 };

/** Figures common to `machine_stats` and its history rows (integers, as the clients decode them). */
export const HISTORY_FIGURES = [
  "total_cpu",
  "user_cpu",
  "system_cpu",
  "iowait_cpu",
  "vmusage_cpu",
  "irq_cpu",
  "ram_used",
  "vram_used",
  "core_temp",
  "core_temp_top",
  "core_peak",
  "core_count_gt_25",
  "core_count_gt_50",
  "core_count_gt_75",
] as const;
export type HistoryFigure = (typeof HISTORY_FIGURES)[number];
export type MachineFigures = Record<HistoryFigure | "ram_pct", number> & { core_usagelist: number[] };

/** Percent used of each core, and the RAM (MB) of a machine that is not a node's. */
function guestLoad(status: Row | undefined): { cores: number[]; ramMb: number; ramTotal: number } {
  const load = status?.powerstate === true ? (VM_LOAD[String(status.status)] ?? 0) : 0;
  const cores = load > 0 ? Number(status?.running_cores ?? 0) : 0;
  const ramTotal = Number(status?.running_ram ?? 0);
  return { cores: Array.from({ length: cores }, () => load), ramMb: load > 0 ? Math.round(ramTotal / 4) : 0, ramTotal };
}

/** A node's cores carry the cores of its running machines at their load; the rest idle. */
function nodeLoad(ctx: EmulatorContext, node: Row): { cores: number[]; ramMb: number; ramTotal: number } {
  const busy: number[] = [];
  let ramMb = HOST.ramMb;
  for (const status of ctx.find(COMPUTE.machine_status, (s) => s.node === node.$key && s.machine !== node.machine)) {
    const guest = guestLoad(status);
    busy.push(...guest.cores);
    ramMb += Number(status.running_ram ?? 0);
  }
  const total = Number(node.cores ?? 0);
  const cores = Array.from({ length: total }, (_, i) => Math.min(100, (busy[i] ?? 0) + HOST.cpuPct));
  return { cores, ramMb, ramTotal: Number(node.ram ?? 0) };
}

function nodeHeldCores(ctx: EmulatorContext, node: Row): number {
  const guests = ctx.find(COMPUTE.machine_status, (s) => s.node === node.$key && s.machine !== node.machine);
  return guests.reduce((sum, s) => sum + guestLoad(s).cores.length, 0);
}

const mean = (values: number[]) => (values.length === 0 ? 0 : Math.round(values.reduce((a, b) => a + b, 0) / values.length));

/** The current figures of a machine (VM, vnet router or node). */
export function machineFigures(ctx: EmulatorContext, machine: unknown): MachineFigures {
  const row = ctx.get(COMPUTE.machines, machine);
  const node = row?.node !== null && row?.node !== undefined ? ctx.get(CLUSTER.nodes, row.node) : undefined;
  const status = ctx.get(COMPUTE.machine_status, machine);
  const { cores, ramMb, ramTotal } = node ? nodeLoad(ctx, node) : guestLoad(status);
  const total = mean(cores);
  const on = cores.length > 0;
  const temp = on ? HOST.idleTempC + Math.round(total / 4) : 0;
  // A node's share of cores held by its running machines.
  const vmUsage = node ? Math.round((100 * nodeHeldCores(ctx, node)) / Math.max(1, Number(node.cores ?? 0))) : 0;
  return {
    total_cpu: total,
    user_cpu: Math.round(total * 0.8),
    system_cpu: total - Math.round(total * 0.8),
    iowait_cpu: 0,
    vmusage_cpu: vmUsage,
    irq_cpu: 0,
    ram_used: ramMb,
    ram_pct: ramTotal > 0 ? Math.round((100 * ramMb) / ramTotal) : 0,
    vram_used: 0,
    core_usagelist: cores,
    core_temp: temp,
    core_temp_top: on ? temp + Math.round(Math.max(...cores) / 10) : 0,
    core_peak: on ? Math.max(...cores) : 0,
    core_count_gt_25: cores.filter((c) => c > 25).length,
    core_count_gt_50: cores.filter((c) => c > 50).length,
    core_count_gt_75: cores.filter((c) => c > 75).length,
  };
}

/** Sampling of each history table: every `everyS` seconds of platform time, the last `keep` samples per machine. */
export const STATS_HISTORY = {
  [COMPUTE.machine_stats_history_short]: { everyS: 10, keep: 360 },
  [COMPUTE.machine_stats_history_long]: { everyS: 600, keep: 4320 },
} as const;
export type StatsHistoryTable = keyof typeof STATS_HISTORY;

/** Per context: the time of the last sample and the sample keys (oldest first) of each table and machine. */
const sampled = new WeakMap<EmulatorContext, Map<string, { last: number; keys: RowKey[] }>>();

/** Writes every sample due up to now, for every machine, with the figures it has had since its last sample. */
export function recordStatsHistory(ctx: EmulatorContext): void {
  const state = sampled.get(ctx) ?? new Map();
  sampled.set(ctx, state);
  const now = ctx.nowSeconds();
  for (const [table, { everyS, keep }] of Object.entries(STATS_HISTORY)) {
    if (!ctx.tables.has(table)) continue;
    for (const machine of ctx.all(COMPUTE.machines)) {
      const id = `${table}/${machine.$key}`;
      const track = state.get(id) ?? { last: Math.floor(Number(machine.created ?? now) / everyS) * everyS, keys: [] };
      state.set(id, track);
      const first = Math.max(track.last + everyS, Math.floor(now / everyS) * everyS - (keep - 1) * everyS);
      if (first > now) continue;
      const figures = machineFigures(ctx, machine.$key);
      const sample = Object.fromEntries(HISTORY_FIGURES.map((f) => [f, figures[f]]));
      for (let t = first; t <= now; t += everyS) {
        track.keys.push(ctx.insert(table, { machine: machine.$key, timestamp: t, ...sample }).$key);
        track.last = t;
      }
      while (track.keys.length > keep) ctx.remove(table, track.keys.shift()!);
    }
  }
}

/** Drops the history of a deleted machine. */
export function dropStatsHistory(ctx: EmulatorContext, machine: RowKey): void {
  const state = sampled.get(ctx);
  for (const table of Object.keys(STATS_HISTORY)) {
    if (!ctx.tables.has(table)) continue;
    for (const row of ctx.find(table, (r) => r.machine === machine)) ctx.remove(table, row.$key);
    state?.delete(`${table}/${machine}`);
  }
}
