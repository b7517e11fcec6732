/**
 * Clusters of nodes: their live status and capacity (`cluster_status`, computed from the nodes and the machines
 * running on them) and their actions. The nodes, storage tiers and devices are beside this file; sizes are
 * listed in README.md.
 */
import { randomBytes } from "node:crypto";
import { createRow } from "../../engine/write";
import { ADMIN_CALLER } from "../../model/callers";
import { conflict } from "../../model/errors";
import type { FieldDef, Row } from "../../model/types";
import { listedRows, namedFields, table, uniqueNames } from "../../model/tableParts";
import { clusterResources } from "../compute/capacity";
import { CLUSTER } from "../../model/names/cluster";

const bool = (value: boolean): FieldDef => ({ type: "bool", default: value });
const text = (value: string): FieldDef => ({ type: "string", default: value });
const uint = (value: number): FieldDef => ({ type: "uint32", default: value });

export const clustersTable = table(CLUSTER.clusters, {
  description:
    "clusters of nodes; `status` joins cluster_status (status#total_nodes...); `resources` gives CPU and RAM totals, use and free",
  ...uniqueNames("a cluster"),
  defaultFields: ["id", "name", "description", "enabled", "storage", "compute", "created"],
  fields: {
    id: { type: "string", readOnly: true, default: () => randomBytes(20).toString("hex"), description: "the cluster's global id" },
    system: { type: "string", readOnly: true, default: "", description: "system (site) the cluster belongs to; empty for the local one" },
    ...namedFields(),
    enabled: bool(true),
    storage: { ...bool(true), description: "the cluster's nodes provide storage (vSAN)" },
    compute: { ...bool(true), description: "the cluster's nodes run workloads" },
    status: { type: "row", ref: CLUSTER.cluster_status, readOnly: true, description: "live status and capacity (same key)" },
    nodes: { type: "rows", ref: CLUSTER.nodes, via: "cluster" },
    resources: { type: "json", notInMost: true, compute: (ctx, row) => clusterResources(ctx, row) },
    created: { type: "created", readOnly: true },
    kvm_nested: bool(false),
    allow_nested_virt_migration: bool(false),
    allow_vgpu_migration: bool(false),
    enable_split_lock_detection: bool(false),
    recommended_cpu_type: text("host"),
    default_cpu: text("host"),
    disable_cpu_security_mitigations: bool(false),
    spec_store_bypass_disable: bool(false),
    disable_smt: bool(false),
    disable_sleep: bool(false),
    enable_nvme_power_management: bool(false),
    x86_energy_perf_policy: text("performance"),
    scaling_governor: text("performance"),
    ram_per_unit: uint(0),
    cores_per_unit: uint(0),
    cost_per_unit: { type: "num", default: 0 },
    price_per_unit: { type: "num", default: 0 },
    max_ram_per_vm: uint(1048576),
    max_cores_per_vm: uint(1024),
    storage_cachesize: uint(0),
    storage_buffersize: uint(0),
    storage_hugepages: bool(false),
    target_ram_pct: { type: "num", default: 80 },
    ram_overcommit_pct: { type: "num", default: 0 },
    swap_tier: uint(0),
    swap_per_drive: uint(0),
    log_filter: text(""),
    max_core_temp: uint(90),
    max_core_temp_warn_perc: uint(90),
    critical_core_temp: uint(100),
  },
  hooks: {
    afterCreate: (ctx, row) => {
      ctx.insert(CLUSTER.cluster_status, { $key: row.$key, cluster: row.$key, status: "online", status_info: "" });
      ctx.update(CLUSTER.clusters, row.$key, { status: row.$key });
    },
    afterDelete: (ctx, row) => {
      ctx.remove(CLUSTER.cluster_status, row.$key);
      for (const tier of ctx.find(CLUSTER.cluster_tiers, (t) => t.cluster === row.$key)) {
        ctx.remove(CLUSTER.cluster_tiers, tier.$key);
        ctx.remove(CLUSTER.cluster_tier_status, tier.$key);
      }
    },
  },
  seed: (ctx) => {
    createRow(ctx, clustersTable, { name: "cluster1", description: "emulated cluster" }, ADMIN_CALLER);
  },
});

/** Live figures of a cluster, computed from its nodes and running machines (RAM in MB). */
function statusFigure(figure: (r: Record<string, number>) => number): FieldDef {
  return {
    type: "uint64",
    compute: (ctx, row) => figure(clusterResources(ctx, ctx.get(CLUSTER.clusters, row.cluster) ?? ({ $key: row.cluster } as Row))),
  };
}

export const clusterStatusTable = table(CLUSTER.cluster_status, {
  description: "live status and capacity of a cluster (key = the cluster's); read-only",
  ...listedRows("int"),
  fields: {
    cluster: { type: "row", ref: CLUSTER.clusters, readOnly: true, summary: true },
    status: {
      type: "string",
      readOnly: true,
      enum: { online: "Online", shutting_down: "Shutting Down", offline: "Offline" },
      summary: true,
    },
    status_info: { type: "string", readOnly: true },
    state: {
      type: "string",
      compute: (_ctx, row) => (row.status === "offline" ? "offline" : "online"),
      enum: { online: "Online", offline: "Offline" },
    },
    last_update: { type: "uint64", compute: (ctx) => ctx.nowSeconds() },
    total_nodes: statusFigure((r) => r.nodes),
    online_nodes: statusFigure((r) => r.nodes),
    running_machines: statusFigure((r) => r.running_machines),
    total_ram: statusFigure((r) => r.ram_total),
    online_ram: statusFigure((r) => r.ram_total),
    used_ram: statusFigure((r) => r.ram_used),
    total_cores: statusFigure((r) => r.cores_total),
    online_cores: statusFigure((r) => r.cores_total),
    used_cores: statusFigure((r) => r.cores_used),
    phys_ram_used: statusFigure((r) => r.ram_used),
    phys_vram_used: statusFigure(() => 0),
    phys_total_cpu: statusFigure((r) => (r.cores_total ? Math.round((100 * r.cores_used) / r.cores_total) : 0)),
  },
});

export const clusterActionsTable = table(CLUSTER.cluster_actions, {
  description: "cluster actions: shutdown, cancel_shutdown",
  keyType: "int",
  operations: ["create"],
  fields: {},
  actions: {
    targetField: "cluster",
    targetTable: CLUSTER.clusters,
    actions: {
      shutdown: {
        description: "begin shutting the cluster down (refused while VMs run on it)",
        handler: (ctx, { target }) => {
          if ((clusterResources(ctx, target!).running_machines ?? 0) > 0) throw conflict("cannot shut down a cluster with running VMs");
          ctx.update(CLUSTER.cluster_status, target!.$key, { status: "shutting_down" });
        },
      },
      cancel_shutdown: {
        description: "cancel a pending shutdown",
        handler: (ctx, { target }) => {
          ctx.update(CLUSTER.cluster_status, target!.$key, { status: "online" });
        },
      },
    },
  },
});
