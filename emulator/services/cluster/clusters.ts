/**
 * Seeded infrastructure: clusters and nodes (finite CPU/RAM), storage tiers
 * (finite capacity) and each cluster's view of them, hardware resource groups, vGPU devices, media files, and
 * the `system` row. Sizes are listed in README.md.
 */
import { randomBytes } from "node:crypto";
import type { EmulatorContext } from "../../engine/context";
import { createRow } from "../../engine/write";
import { conflict } from "../../model/errors";
import { clusterResources, nodeUsage, tierFree, tierUsed } from "../compute/capacity";
import { createMachineFor } from "../compute/machines";
import { API_VERSION_TEXT } from "../system/version";
import type { Caller, FieldDef, Row, TableDef } from "../../model/types";

const SYSTEM: Caller = { user: "admin", role: "admin", ip: "127.0.0.1" };

type Count = (ctx: EmulatorContext) => number;
const count =
  (table: string, where: (ctx: EmulatorContext, row: Row) => boolean = () => true) =>
  (ctx: EmulatorContext) =>
    ctx.all(table).filter((row) => where(ctx, row)).length;
const running = (ctx: EmulatorContext, row: Row) => ctx.get("machine_status", row.machine)?.running === true;

/** What the dashboard counts, each as `<name>_count`, `_online`, `_warn` and `_error` (the names the maker's clients read). */
const DASHBOARD_SUBJECTS: Record<string, { all: Count; online: Count }> = {
  machines: {
    all: count("vms", (_c, vm) => vm.is_snapshot !== true),
    online: count("vms", (c, vm) => vm.is_snapshot !== true && running(c, vm)),
  },
  vnets: { all: count("vnets"), online: count("vnets", running) },
  nodes: { all: count("nodes"), online: count("nodes", (_c, node) => node.status === "running") },
  clusters: { all: count("clusters"), online: count("cluster_status", (_c, status) => status.status === "online") },
  users: { all: count("users"), online: count("users", (_c, user) => user.enabled === true) },
  groups: { all: count("groups"), online: count("groups", (_c, group) => group.enabled === true) },
  repos: { all: count("catalog_repositories"), online: count("catalog_repositories", (_c, repo) => repo.status === "online") },
  cluster_tiers: { all: count("storage_tiers"), online: count("storage_tiers") },
  tenants: { all: () => 0, online: () => 0 },
  sites: { all: () => 0, online: () => 0 },
};

const DASHBOARD_COUNTS: Record<string, Count> = {
  ...Object.fromEntries(
    Object.entries(DASHBOARD_SUBJECTS).flatMap(([name, { all, online }]) => [
      [`${name}_count`, all],
      [`${name}_online`, online],
      [`${name}_warn`, () => 0],
      [`${name}_error`, () => 0],
    ]),
  ),
  storage_tiers_count: count("storage_tiers"),
  alarms_count: () => 0,
};

const GiB = 1024 ** 3;
const TiB = 1024 ** 4;

const bool = (value: boolean): FieldDef => ({ type: "bool", default: value });
const text = (value: string): FieldDef => ({ type: "string", default: value });
const uint = (value: number): FieldDef => ({ type: "uint32", default: value });

export const clustersTable: TableDef = {
  name: "clusters",
  description:
    "clusters of nodes; `status` joins cluster_status (status#total_nodes...); `resources` gives CPU and RAM totals, use and free",
  keyType: "int",
  unique: { field: "name", message: "a cluster with that name exists" },
  defaultFields: ["id", "name", "description", "enabled", "storage", "compute", "created"],
  fields: {
    id: { type: "string", readOnly: true, default: () => randomBytes(20).toString("hex"), description: "the cluster's global id" },
    system: { type: "string", readOnly: true, default: "", description: "system (site) the cluster belongs to; empty for the local one" },
    name: { type: "string", required: true, maxLength: 128, summary: true },
    description: { type: "text", default: "" },
    enabled: bool(true),
    storage: { ...bool(true), description: "the cluster's nodes provide storage (vSAN)" },
    compute: { ...bool(true), description: "the cluster's nodes run workloads" },
    status: { type: "row", ref: "cluster_status", readOnly: true, description: "live status and capacity (same key)" },
    nodes: { type: "rows", ref: "nodes", via: "cluster" },
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
      ctx.insert("cluster_status", { $key: row.$key, cluster: row.$key, status: "online", status_info: "" });
      ctx.update("clusters", row.$key, { status: row.$key });
    },
    afterDelete: (ctx, row) => {
      ctx.remove("cluster_status", row.$key);
      for (const tier of ctx.find("cluster_tiers", (t) => t.cluster === row.$key)) {
        ctx.remove("cluster_tiers", tier.$key);
        ctx.remove("cluster_tier_status", tier.$key);
      }
    },
  },
  seed: (ctx) => {
    createRow(ctx, clustersTable, { name: "cluster1", description: "emulated cluster" }, SYSTEM);
  },
};

/** Live figures of a cluster, computed from its nodes and running machines (RAM in MB). */
function statusFigure(figure: (r: Record<string, number>) => number): FieldDef {
  return {
    type: "uint64",
    compute: (ctx, row) => figure(clusterResources(ctx, ctx.get("clusters", row.cluster) ?? ({ $key: row.cluster } as Row))),
  };
}

export const clusterStatusTable: TableDef = {
  name: "cluster_status",
  description: "live status and capacity of a cluster (key = the cluster's); read-only",
  keyType: "int",
  operations: ["list", "get"],
  fields: {
    cluster: { type: "row", ref: "clusters", readOnly: true, summary: true },
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
};

const NODE_SPECS = { cores: 32, ram: 131072, cpu: "AMD EPYC 7543 32-Core Processor", cpu_speed: "2.8 GHz", model: "emulated" };

export const nodesTable: TableDef = {
  name: "nodes",
  description: "physical nodes (emulated) with their CPU cores and RAM (MB); `id` = `$key`, which migrations name",
  keyType: "int",
  operations: ["list", "get"],
  fields: {
    id: { type: "uint32", compute: (_ctx, row) => row.$key, description: "node id (same as the key)" },
    name: { type: "string", readOnly: true, summary: true },
    description: { type: "text", readOnly: true, default: "" },
    physical: { type: "bool", readOnly: true, default: true },
    cluster: { type: "row", ref: "clusters", readOnly: true },
    machine: { type: "row", ref: "machines", readOnly: true, default: null },
    model: { type: "string", readOnly: true, default: NODE_SPECS.model },
    asset_tag: { type: "string", readOnly: true, default: "" },
    cpu: { type: "string", readOnly: true, default: NODE_SPECS.cpu },
    cpu_speed: { type: "string", readOnly: true, default: NODE_SPECS.cpu_speed },
    cores: { type: "uint16", readOnly: true },
    iommu: { type: "bool", readOnly: true, default: true },
    ram: { type: "uint32", readOnly: true, description: "MB" },
    overcommit: { type: "uint32", readOnly: true, default: 0 },
    vm_ram: {
      type: "uint32",
      compute: (ctx, row) => Number(row.ram) - nodeUsage(ctx, row).freeRam,
      description: "MB held by running machines",
    },
    failover_ram: { type: "uint32", readOnly: true, default: 0 },
    yb_version: { type: "string", readOnly: true, default: API_VERSION_TEXT },
    os_version: { type: "string", readOnly: true, default: API_VERSION_TEXT },
    kernel_version: { type: "string", readOnly: true, default: "6.6.0-emulated" },
    appserver_version: { type: "string", readOnly: true, default: API_VERSION_TEXT },
    vsan_version: { type: "string", readOnly: true, default: API_VERSION_TEXT },
    qemu_version: { type: "string", readOnly: true, default: "10.0.0" },
    vsan_nodeid: { type: "uint32", compute: (_ctx, row) => Number(row.$key) - 1 },
    vsan_connected: { type: "bool", readOnly: true, default: true },
    maintenance: { type: "bool", readOnly: true, default: false },
    need_restart: { type: "bool", readOnly: true, default: false },
    restart_reason: { type: "string", readOnly: true, default: "" },
    ipmi_address: { type: "string", readOnly: true, default: "" },
    ipmi_user: { type: "string", readOnly: true, default: "" },
    ipmi_status: { type: "string", readOnly: true, default: "unconfigured" },
    ipmi_status_info: { type: "string", readOnly: true, default: "" },
    max_core_temp: { type: "uint32", readOnly: true, default: 90 },
    max_core_temp_warn_perc: { type: "uint32", readOnly: true, default: 90 },
    critical_core_temp: { type: "uint32", readOnly: true, default: 100 },
    pxe_vnet: { type: "row", ref: "vnets", readOnly: true, default: null },
    capture_logs: { type: "bool", readOnly: true, default: false },
    lldp: { type: "bool", readOnly: true, default: true },
    note: { type: "text", readOnly: true, default: "" },
    status: { type: "string", readOnly: true, enum: { running: "Running", maintenance: "Maintenance", offline: "Offline" } },
  },
  seed: (ctx) => {
    for (const name of ["node1", "node2"]) {
      const row: Record<string, unknown> = { name, cluster: 1, cores: NODE_SPECS.cores, ram: NODE_SPECS.ram, status: "running" };
      for (const [field, def] of Object.entries(nodesTable.fields))
        if (row[field] === undefined && !def.compute) row[field] = def.default ?? null;
      const node = ctx.insert("nodes", row);
      ctx.update("nodes", node.$key, { machine: createMachineFor(ctx, node, "node") });
    }
  },
};

/** `dashboard`: one row of system-wide counts (the maker's clients read it for statistics). */
export const dashboardTable: TableDef = {
  name: "dashboard",
  description: "system-wide counts: VMs, vnets, nodes, clusters, storage tiers, users (read-only, one row)",
  keyType: "int",
  singleton: true,
  operations: ["list", "get"],
  fields: Object.fromEntries(
    Object.entries(DASHBOARD_COUNTS).map(([name, count]) => [name, { type: "uint32", compute: count } satisfies FieldDef]),
  ),
  seed: (ctx) => {
    ctx.insert("dashboard", {});
  },
};

export const clusterActionsTable: TableDef = {
  name: "cluster_actions",
  description: "cluster actions: shutdown, cancel_shutdown",
  keyType: "int",
  operations: ["create"],
  fields: {},
  actions: {
    targetField: "cluster",
    targetTable: "clusters",
    actions: {
      shutdown: {
        description: "begin shutting the cluster down (refused while VMs run on it)",
        handler: (ctx, { target }) => {
          if ((clusterResources(ctx, target!).running_machines ?? 0) > 0) throw conflict("cannot shut down a cluster with running VMs");
          ctx.update("cluster_status", target!.$key, { status: "shutting_down" });
        },
      },
      cancel_shutdown: {
        description: "cancel a pending shutdown",
        handler: (ctx, { target }) => {
          ctx.update("cluster_status", target!.$key, { status: "online" });
        },
      },
    },
  },
};

export const storageTiersTable: TableDef = {
  name: "storage_tiers",
  description: "storage tiers 1–5 with finite capacity (bytes); used/free are computed from the drives",
  keyType: "string",
  operations: ["list", "get", "update"],
  fields: {
    tier: { type: "uint8", readOnly: true, summary: true },
    description: { type: "text", default: "" },
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
      ctx.insert("storage_tiers", { $key: String(i + 1), tier: i + 1, description: `Tier ${i + 1}`, capacity });
    }
  },
};

/** A cluster tier's live figure, computed from its storage tier (same key as the cluster tier). */
function tierFigure(figure: (capacity: number, used: number) => unknown): FieldDef {
  return {
    type: "uint64",
    compute: (ctx, row) => {
      const tier = String(ctx.get("cluster_tiers", row.$key)?.tier);
      return figure(Number(ctx.get("storage_tiers", tier)?.capacity ?? 0), tierUsed(ctx, tier));
    },
  };
}

/** Figures of the emulated vSAN's walks. */
const VSAN_WALK = { walkMs: 1200, fullwalkMs: 5400, transactionS: 5, blockBytes: 65536 };

export const clusterTierStatusTable: TableDef = {
  name: "cluster_tier_status",
  description: "live status of a cluster's tier (key = the cluster tier's; bytes); read-only",
  keyType: "int",
  operations: ["list", "get"],
  fields: {
    tier: { type: "row", ref: "cluster_tiers", compute: (_ctx, row) => row.$key, summary: true },
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
};

export const clusterTiersTable: TableDef = {
  name: "cluster_tiers",
  description: "a cluster's storage tiers with their cost and price per GB; `status` joins cluster_tier_status (read-only)",
  keyType: "int",
  operations: ["list", "get"],
  fields: {
    cluster: { type: "row", ref: "clusters", readOnly: true, summary: true },
    tier: { type: "uint8", readOnly: true, summary: true },
    description: { type: "text", readOnly: true, default: "" },
    cost_per_gb: { type: "num", readOnly: true, default: 0 },
    price_per_gb: { type: "num", readOnly: true, default: 0 },
    status: { type: "row", ref: "cluster_tier_status", compute: (_ctx, row) => row.$key, description: "live status (same key)" },
    // I/O rates: the emulator moves no data, so zeros (clients asking `stats#rops` get null, which they read as 0).
    stats: { type: "json", notInMost: true, compute: () => ({ rops: 0, wops: 0, rbps: 0, wbps: 0 }) },
  },
  seed: (ctx) => {
    for (const cluster of ctx.all("clusters")) {
      for (const { tier, description } of ctx.all("storage_tiers")) {
        const row = ctx.insert("cluster_tiers", { cluster: cluster.$key, tier, description, cost_per_gb: 0, price_per_gb: 0 });
        ctx.insert("cluster_tier_status", { $key: row.$key, state_timestamp: ctx.nowSeconds() });
      }
    }
  },
};

export const resourceGroupsTable: TableDef = {
  name: "resource_groups",
  description: "hardware devices (GPUs, PCI, USB) that can be attached, keyed by UUID",
  keyType: "string",
  operations: ["list", "get"],
  fields: {
    uuid: { type: "string", readOnly: true, summary: true },
    name: { type: "string", readOnly: true, summary: true },
    type: {
      type: "string",
      readOnly: true,
      enum: {
        node_host_gpu_devices: "Host GPU",
        node_nvidia_vgpu_devices: "NVIDIA vGPU",
        node_usb_devices: "USB",
        node_pci_devices: "PCI",
        node_sriov_nic_devices: "SR-IOV NIC",
      },
    },
    class: { type: "string", readOnly: true, enum: { gpu: "GPU", vgpu: "vGPU", usb: "USB", pci: "PCI", nic: "NIC" } },
    description: { type: "text", readOnly: true },
    enabled: { type: "bool", readOnly: true },
    settings_args: { type: "json", readOnly: true, default: {}, description: "settings every device of the group gets" },
    key_args: { type: "json", readOnly: true, default: {} },
    resources: { type: "rows", ref: "resource_rules", compute: () => [], description: "rules selecting the group's devices (none here)" },
    created: { type: "created", readOnly: true },
    modified: { type: "modified", readOnly: true },
  },
  seed: (ctx) => {
    const groups = [
      {
        uuid: "0f3e6a52-6d1b-4b8e-9a51-a100a100a001",
        name: "nvidia-a100",
        type: "node_host_gpu_devices",
        class: "gpu",
        description: "NVIDIA A100 80GB (passthrough)",
      },
      {
        uuid: "0f3e6a52-6d1b-4b8e-9a51-a100a100a002",
        name: "nvidia-a100-2",
        type: "node_host_gpu_devices",
        class: "gpu",
        description: "second NVIDIA A100 80GB",
      },
      {
        uuid: "5b7c1d2e-3f40-4a51-8b62-9c7d8e9f0a11",
        name: "nvidia-a100-vgpu",
        type: "node_nvidia_vgpu_devices",
        class: "vgpu",
        description: "NVIDIA GRID A100-4C vGPU profile",
      },
      {
        uuid: "9a8b7c6d-5e4f-4321-8fed-cba987654321",
        name: "usb-yubikey",
        type: "node_usb_devices",
        class: "usb",
        description: "Yubico YubiKey 5 (USB)",
      },
    ];
    for (const g of groups) {
      const now = ctx.nowSeconds();
      ctx.insert("resource_groups", { $key: g.uuid, ...g, enabled: true, settings_args: {}, key_args: {}, created: now, modified: now });
    }
  },
};

const VGPU_PCI = {
  pci_device: "0000:41:00.0",
  slot: "41:00.0",
  vendor: "NVIDIA Corporation",
  device: "GA100 [A100 PCIe 80GB]",
  vendor_device_hex: "10de:20b5",
  driver: "nvidia",
  module: "nvidia",
  iommu_group: 41,
  numa: 0,
  physical_function: "",
  virtfn: 0,
  type_id: "nvidia-592",
  fingerprint: "10de:20b5:41:00.0",
};

export const vgpuDevicesTable: TableDef = {
  name: "node_nvidia_vgpu_devices",
  description: "NVIDIA vGPU devices of the nodes",
  keyType: "int",
  operations: ["list", "get"],
  fields: {
    name: { type: "string", readOnly: true, summary: true },
    node: { type: "row", ref: "nodes", readOnly: true },
    resource_group: { type: "row", ref: "resource_groups", readOnly: true },
    profile: { type: "string", readOnly: true },
    framebuffer_mb: { type: "uint32", readOnly: true },
    available: { type: "uint8", readOnly: true },
    // The PCI identity of the physical GPU the vGPUs are cut from, as the maker's clients list it.
    ...Object.fromEntries(
      Object.entries(VGPU_PCI).map(([name, value]) => [
        name,
        { type: typeof value === "number" ? "uint32" : "string", readOnly: true } as FieldDef,
      ]),
    ),
    max_instances: { type: "uint8", readOnly: true },
    created: { type: "created", readOnly: true },
    modified: { type: "modified", readOnly: true },
  },
  seed: (ctx) => {
    for (const node of [1, 2]) {
      ctx.insert("node_nvidia_vgpu_devices", {
        name: `GRID A100-4C (node${node})`,
        node,
        resource_group: "5b7c1d2e-3f40-4a51-8b62-9c7d8e9f0a11",
        profile: "A100-4C",
        framebuffer_mb: 4096,
        available: 10,
        max_instances: 10,
        ...VGPU_PCI,
        created: ctx.nowSeconds(),
        modified: ctx.nowSeconds(),
      });
    }
  },
};

export const filesTable: TableDef = {
  name: "files",
  description: "stored media files (ISO images, disk images) usable as media_source, and the image files of NAS volumes",
  keyType: "int",
  // Names are unique in the media store; a volume's files are told apart by their volume and path.
  unique: { field: "name", message: "a file with that name exists", scope: (row) => !row.volume },
  fields: {
    name: { type: "string", required: true, maxLength: 255, summary: true },
    type: {
      type: "string",
      default: "iso",
      enum: {
        iso: "ISO image",
        qcow2: "QCOW2",
        raw: "Raw",
        vmdk: "VMDK",
        vhd: "VHD",
        vhdx: "VHDX",
        ova: "OVA",
        ovf: "OVF",
        img: "Image",
        other: "Other",
      },
    },
    description: { type: "text", default: "" },
    filesize: { type: "uint64", default: 0 },
    allocated_bytes: { type: "uint64", readOnly: true, compute: (_ctx, row) => row.filesize },
    used_bytes: { type: "uint64", readOnly: true, compute: (_ctx, row) => row.filesize },
    preferred_tier: { type: "string", default: "1", enum: { 1: "1", 2: "2", 3: "3", 4: "4", 5: "5" } },
    public_link: { type: "string", readOnly: true, default: "" },
    owner: { type: "row", readOnly: true, default: null, description: "owning row (null: the system)" },
    url: { type: "string", readOnly: true, default: "", description: "download URL of an uploaded-from-URL file" },
    modified: { type: "modified", readOnly: true },
    creator: { type: "string", readOnly: true, default: "system" },
    volume: {
      type: "row",
      ref: "volumes",
      readOnly: true,
      default: null,
      description: "the NAS volume holding the file (null: the media store)",
    },
    volume_path: { type: "string", readOnly: true, default: "", description: "the file's path on its volume" },
    path: {
      type: "string",
      compute: (ctx, row) =>
        row.volume
          ? `/volumes/${String(ctx.get("volumes", row.volume)?.name ?? row.volume)}/${String(row.volume_path)}`
          : `/files/${String(row.name)}`,
      description: "where the file is stored",
    },
  },
  seed: (ctx) => {
    const files = [
      { name: "ubuntu-24.04-live-server-amd64.iso", type: "iso", filesize: 2.6 * GiB },
      { name: "debian-12-netinst.iso", type: "iso", filesize: 0.6 * GiB },
      { name: "virtio-win.iso", type: "iso", filesize: 0.7 * GiB },
      { name: "debian-12-genericcloud-amd64.qcow2", type: "qcow2", filesize: 2 * GiB },
    ];
    for (const f of files)
      ctx.insert("files", {
        ...f,
        filesize: Math.round(f.filesize),
        description: "",
        preferred_tier: "1",
        public_link: "",
        modified: ctx.nowSeconds(),
        creator: "system",
      });
  },
};

export const fileActionsTable: TableDef = {
  name: "file_actions",
  description: "file actions: overwrite, add_link, delete_link, delete_reference",
  keyType: "int",
  operations: ["create"],
  fields: {},
  actions: {
    targetField: "file",
    targetTable: "files",
    actions: {
      overwrite: {
        description: "mark the file rewritten",
        handler: (ctx, { target }) => void ctx.update("files", target!.$key, { modified: ctx.nowSeconds() }),
      },
      add_link: {
        description: "create a public download link",
        handler: (ctx, { target }) => {
          const link = `/pub/${randomBytes(12).toString("hex")}/${target!.name}`;
          ctx.update("files", target!.$key, { public_link: link });
          return { body: { response: { link } } };
        },
      },
      delete_link: {
        description: "remove the public link",
        handler: (ctx, { target }) => void ctx.update("files", target!.$key, { public_link: "" }),
      },
      delete_reference: {
        description: "detach the file from drives using it as media_source (cdrom drives lose their medium)",
        handler: (ctx, { target }) => {
          for (const drive of ctx.find("machine_drives", (d) => d.media_source === target!.$key && d.media === "cdrom")) {
            ctx.update("machine_drives", drive.$key, { media_source: null });
          }
        },
      },
    },
  },
};

export const systemTable: TableDef = {
  name: "system",
  description: "the system's identity and version (one row)",
  keyType: "int",
  operations: ["list", "get"],
  singleton: true,
  fields: {
    yb_version: { type: "string", readOnly: true },
    os_version: { type: "string", readOnly: true },
    cloud_name: { type: "string", readOnly: true },
    branch: { type: "string", readOnly: true },
  },
  seed: (ctx) => {
    ctx.insert("system", {
      yb_version: API_VERSION_TEXT,
      os_version: API_VERSION_TEXT,
      cloud_name: "vplatform-emulator",
      branch: "stable",
    });
  },
};
