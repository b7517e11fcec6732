/**
 * Storage: the tiers 1–5 with finite capacity (used and free computed from the drives placed in them) and each
 * cluster's view of them (`cluster_tiers`, with its live `cluster_tier_status`).
 */
import type { FieldDef } from "../../model/types";
import { descriptionField, listedRows, table } from "../../model/tableParts";
import { tierFree, tierUsed } from "../compute/capacity";
import { CLUSTER } from "../../model/names/cluster";

const TiB = 1024 ** 4;

export const storageTiersTable = table(CLUSTER.storage_tiers, {
  description: "storage tiers 1–5 with finite capacity (bytes); used/free are computed from the drives",
  ...listedRows("string", "update"),
  fields: {
    tier: { type: "uint8", readOnly: true, summary: true },
    description: descriptionField(),
    capacity: { type: "uint64", description: "bytes" },
    used: { type: "uint64", compute: (ctx, row) => tierUsed(ctx, String(row.$key)) },
    free: { type: "uint64", compute: (ctx, row) => tierFree(ctx, String(row.$key)) },
    allocated: { type: "uint64", compute: (ctx, row) => tierUsed(ctx, String(row.$key)) },
    used_inflated: { type: "uint64", compute: (ctx, row) => tierUsed(ctx, String(row.$key)) },
    dedupe_ratio: { type: "uint32", compute: () => 100, description: "percent (100 = no deduplication)" },
    used_pct: {
      type: "uint32",
      compute: (ctx, row) => Math.round((100 * tierUsed(ctx, String(row.$key))) / Math.max(1, Number(row.capacity))),
    },
    modified: { type: "modified", readOnly: true },
    stats: {
      type: "json",
      notInMost: true,
      compute: () => ({ reads: 0, writes: 0, read_bytes: 0, write_bytes: 0, rops: 0, wops: 0, rbps: 0, wbps: 0 }),
    },
  },
  seed: (ctx) => {
    const capacities = [2 * TiB, 4 * TiB, 8 * TiB, 16 * TiB, 1 * TiB];
    for (const [i, capacity] of capacities.entries()) {
      ctx.insert(CLUSTER.storage_tiers, { $key: String(i + 1), tier: i + 1, description: `Tier ${i + 1}`, capacity });
    }
  },
});

/** A cluster tier's live figure, computed from its storage tier (same key as the cluster tier). */
function tierFigure(figure: (capacity: number, used: number) => unknown): FieldDef {
  return {
    type: "uint64",
    compute: (ctx, row) => {
      const tier = String(ctx.get(CLUSTER.cluster_tiers, row.$key)?.tier);
      return figure(Number(ctx.get(CLUSTER.storage_tiers, tier)?.capacity ?? 0), tierUsed(ctx, tier));
    },
  };
}

/** Figures of the emulated vSAN's walks. */
const VSAN_WALK = { walkMs: 1200, fullwalkMs: 5400, transactionS: 5, blockBytes: 65536 };

export const clusterTierStatusTable = table(CLUSTER.cluster_tier_status, {
  description: "live status of a cluster's tier (key = the cluster tier's; bytes); read-only",
  ...listedRows("int"),
  fields: {
    tier: { type: "row", ref: CLUSTER.cluster_tiers, compute: (_ctx, row) => row.$key, summary: true },
    status: { type: "string", compute: () => "online", enum: { online: "Online", offline: "Offline" } },
    state: { type: "string", compute: () => "online", enum: { online: "Online", offline: "Offline" } },
    capacity: tierFigure((capacity) => capacity),
    used: tierFigure((_capacity, used) => used),
    used_pct: tierFigure((capacity, used) => Math.round((100 * used) / Math.max(1, capacity))),
    allocated: { ...tierFigure((_capacity, used) => used), description: "bytes allocated to drives (thin: what they use)" },
    redundant: { type: "bool", compute: () => true },
    encrypted: { type: "bool", compute: () => false },
    working: { type: "bool", compute: () => false },
    // The emulated vSAN never loses a drive: walks finish in fixed times, nothing needs repair.
    last_walk_time_ms: { type: "uint64", compute: () => VSAN_WALK.walkMs },
    last_fullwalk_time_ms: { type: "uint64", compute: () => VSAN_WALK.fullwalkMs },
    transaction: {
      type: "uint64",
      compute: (ctx) => Math.floor(ctx.nowSeconds() / VSAN_WALK.transactionS),
      description: "the vSAN's transaction counter: one every few seconds of platform time",
    },
    transaction_start_stamp: {
      type: "uint32",
      compute: (ctx) => Math.floor(ctx.nowSeconds() / VSAN_WALK.transactionS) * VSAN_WALK.transactionS,
    },
    repairs: { type: "uint64", compute: () => 0 },
    bad_drives: { type: "num", compute: () => 0 },
    fullwalk: { type: "bool", compute: () => false },
    progress: { type: "num", compute: () => 0, description: "walk progress 0–1 (no walk runs)" },
    index_unique: { ...tierFigure((_capacity, used) => Math.floor(used / VSAN_WALK.blockBytes)), description: "unique blocks stored" },
    state_timestamp: { type: "uint64", readOnly: true, description: "when the state last changed (the tier's creation)" },
    cur_space_throttle_ms: { type: "num", compute: () => 0 },
  },
});

export const clusterTiersTable = table(CLUSTER.cluster_tiers, {
  description: "a cluster's storage tiers with their cost and price per GB; `status` joins cluster_tier_status (read-only)",
  ...listedRows("int"),
  fields: {
    cluster: { type: "row", ref: CLUSTER.clusters, readOnly: true, summary: true },
    tier: { type: "uint8", readOnly: true, summary: true },
    description: { type: "text", readOnly: true, default: "" },
    cost_per_gb: { type: "num", readOnly: true, default: 0 },
    price_per_gb: { type: "num", readOnly: true, default: 0 },
    status: { type: "row", ref: CLUSTER.cluster_tier_status, compute: (_ctx, row) => row.$key, description: "live status (same key)" },
    // I/O rates: the emulator moves no data, so zeros (clients asking `stats#rops` get null, which they read as 0).
    stats: { type: "json", notInMost: true, compute: () => ({ rops: 0, wops: 0, rbps: 0, wbps: 0 }) },
  },
  seed: (ctx) => {
    for (const cluster of ctx.all(CLUSTER.clusters)) {
      for (const { tier, description } of ctx.all(CLUSTER.storage_tiers)) {
        const row = ctx.insert(CLUSTER.cluster_tiers, { cluster: cluster.$key, tier, description, cost_per_gb: 0, price_per_gb: 0 });
        ctx.insert(CLUSTER.cluster_tier_status, { $key: row.$key, state_timestamp: ctx.nowSeconds() });
      }
    }
  },
});
