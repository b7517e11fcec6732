/**
 * Finite capacity: cluster CPU/RAM (nodes' totals minus what running machines
 * hold) and storage tiers (capacity minus the disks placed in them). Used to
 * answer 507 when a VM cannot start or a drive, clone or snapshot does not fit.
 */
import type { EmulatorContext } from "../../engine/context";
import { ApiError } from "../../model/errors";
import { isNodeMachine } from "./machineState";
import type { Row } from "../../model/types";
import { COMPUTE } from "../../model/names/compute";
import { CLUSTER } from "../../model/names/cluster";

/** Media that occupy tier space (a cdrom only points at a file). */
const SPACE_MEDIA = new Set(["disk", "import", "clone", "efidisk", "nonpersistent"]);

export function driveBytes(drive: Row): number {
  return SPACE_MEDIA.has(String(drive.media)) ? Number(drive.disksize ?? 0) : 0;
}

export function tierUsed(ctx: EmulatorContext, tier: string): number {
  let used = 0;
  for (const drive of ctx.all(COMPUTE.machine_drives)) if (String(drive.preferred_tier) === tier) used += driveBytes(drive);
  return used;
}

export function tierFree(ctx: EmulatorContext, tier: string): number {
  const row = ctx.get(CLUSTER.storage_tiers, tier);
  return row ? Number(row.capacity) - tierUsed(ctx, tier) : 0;
}

/** Throws 507 unless every tier can take the extra bytes asked of it. */
export function assertTierSpace(ctx: EmulatorContext, needs: Map<string, number>): void {
  for (const [tier, bytes] of needs) {
    if (bytes > 0 && bytes > tierFree(ctx, tier)) throw new ApiError(507, "insufficient storage space in the requested tier");
  }
}

/** Space needed to copy a machine's drives (clone, snapshot), per tier. */
export function copyNeeds(ctx: EmulatorContext, machine: unknown): Map<string, number> {
  const needs = new Map<string, number>();
  for (const drive of ctx.find(COMPUTE.machine_drives, (d) => d.machine === machine)) {
    const tier = String(drive.preferred_tier);
    needs.set(tier, (needs.get(tier) ?? 0) + driveBytes(drive));
  }
  return needs;
}

export interface NodeUsage {
  node: Row;
  freeCores: number;
  freeRam: number;
}

export function nodeUsage(ctx: EmulatorContext, node: Row): NodeUsage {
  let cores = 0;
  let ram = 0;
  for (const status of ctx.all(COMPUTE.machine_status)) {
    if (status.node === node.$key) {
      cores += Number(status.running_cores ?? 0);
      ram += Number(status.running_ram ?? 0);
    }
  }
  return { node, freeCores: Number(node.cores) - cores, freeRam: Number(node.ram) - ram };
}

/** The node with the most free RAM that fits the VM, in the VM's cluster (or any); else 507. */
export function placeVm(ctx: EmulatorContext, vm: Row, preferredNode?: unknown): Row {
  const cores = Number(vm.cpu_cores);
  const ram = Number(vm.ram);
  const candidates = ctx
    .find(CLUSTER.nodes, (n) => (vm.cluster === null || vm.cluster === undefined || n.cluster === vm.cluster) && n.status === "running")
    .map((n) => nodeUsage(ctx, n))
    .filter((u) => u.freeCores >= cores && u.freeRam >= ram)
    .sort((a, b) => b.freeRam - a.freeRam);
  const preferred = candidates.find((u) => u.node.$key === preferredNode);
  const chosen = preferred ?? candidates[0];
  if (!chosen) throw new ApiError(507, "insufficient cluster resources to start VM");
  return chosen.node;
}

export function clusterResources(ctx: EmulatorContext, cluster: Row): Record<string, number> {
  const nodes = ctx.find(CLUSTER.nodes, (n) => n.cluster === cluster.$key);
  const totals = {
    cores_total: 0,
    cores_used: 0,
    cores_free: 0,
    ram_total: 0,
    ram_used: 0,
    ram_free: 0,
    nodes: nodes.length,
    running_machines: 0,
  };
  for (const node of nodes) {
    const usage = nodeUsage(ctx, node);
    totals.cores_total += Number(node.cores);
    totals.ram_total += Number(node.ram);
    totals.cores_free += usage.freeCores;
    totals.ram_free += usage.freeRam;
  }
  totals.cores_used = totals.cores_total - totals.cores_free;
  totals.ram_used = totals.ram_total - totals.ram_free;
  const nodeKeys = new Set(nodes.map((n) => n.$key));
  // A node's own machine runs on itself but is no workload of the cluster.
  totals.running_machines = ctx.find(
    COMPUTE.machine_status,
    (s) => nodeKeys.has(s.node as number) && !isNodeMachine(ctx, s.machine),
  ).length;
  return totals;
}
