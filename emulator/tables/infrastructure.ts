/**
 * Seeded infrastructure: clusters and nodes (finite CPU/RAM), storage tiers
 * (finite capacity), hardware resource groups, vGPU devices, media files, and
 * the `system` row. Sizes are listed in README.md.
 */
import { randomBytes } from "node:crypto";
import { conflict } from "../core/errors";
import { clusterResources, tierFree, tierUsed } from "../domain/capacity";
import { API_VERSION_TEXT } from "./version";
import type { TableDef } from "./types";

const GiB = 1024 ** 3;
const TiB = 1024 ** 4;

export const clustersTable: TableDef = {
  name: "clusters",
  description: "clusters of nodes; `resources` gives CPU and RAM totals, use and free",
  keyType: "int",
  unique: { field: "name", message: "a cluster with that name exists" },
  fields: {
    name: { type: "string", required: true, maxLength: 128, summary: true },
    description: { type: "text", default: "" },
    status: { type: "string", readOnly: true, default: "online", enum: { online: "Online", shutting_down: "Shutting down", offline: "Offline" } },
    nodes: { type: "rows", ref: "nodes", via: "cluster" },
    resources: { type: "json", notInMost: true, compute: (ctx, row) => clusterResources(ctx, row) },
    created: { type: "created", readOnly: true },
  },
  seed: (ctx) => {
    ctx.insert("clusters", { name: "cluster1", description: "emulated cluster", status: "online", created: ctx.nowSeconds() });
  },
};

export const nodesTable: TableDef = {
  name: "nodes",
  description: "physical nodes (emulated) with their CPU cores and RAM (MB)",
  keyType: "int",
  operations: ["list", "get"],
  fields: {
    name: { type: "string", readOnly: true, summary: true },
    cluster: { type: "row", ref: "clusters", readOnly: true },
    cores: { type: "uint16", readOnly: true },
    ram: { type: "uint32", readOnly: true, description: "MB" },
    status: { type: "string", readOnly: true },
  },
  seed: (ctx) => {
    for (const name of ["node1", "node2"]) ctx.insert("nodes", { name, cluster: 1, cores: 32, ram: 131072, status: "running" });
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
          ctx.update("clusters", target!.$key, { status: "shutting_down" });
        },
      },
      cancel_shutdown: {
        description: "cancel a pending shutdown",
        handler: (ctx, { target }) => {
          ctx.update("clusters", target!.$key, { status: "online" });
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
  },
  seed: (ctx) => {
    const capacities = [2 * TiB, 4 * TiB, 8 * TiB, 16 * TiB, 1 * TiB];
    capacities.forEach((capacity, i) =>
      ctx.insert("storage_tiers", { $key: String(i + 1), tier: i + 1, description: `Tier ${i + 1}`, capacity }));
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
    type: { type: "string", readOnly: true },
    class: { type: "string", readOnly: true },
    description: { type: "text", readOnly: true },
    enabled: { type: "bool", readOnly: true },
  },
  seed: (ctx) => {
    const groups = [
      { uuid: "0f3e6a52-6d1b-4b8e-9a51-a100a100a001", name: "nvidia-a100", type: "node_host_gpu_devices", class: "gpu", description: "NVIDIA A100 80GB (passthrough)" },
      { uuid: "0f3e6a52-6d1b-4b8e-9a51-a100a100a002", name: "nvidia-a100-2", type: "node_host_gpu_devices", class: "gpu", description: "second NVIDIA A100 80GB" },
      { uuid: "5b7c1d2e-3f40-4a51-8b62-9c7d8e9f0a11", name: "nvidia-a100-vgpu", type: "node_nvidia_vgpu_devices", class: "vgpu", description: "NVIDIA GRID A100-4C vGPU profile" },
      { uuid: "9a8b7c6d-5e4f-4321-8fed-cba987654321", name: "usb-yubikey", type: "node_usb_devices", class: "usb", description: "Yubico YubiKey 5 (USB)" },
    ];
    for (const g of groups) ctx.insert("resource_groups", { $key: g.uuid, ...g, enabled: true });
  },
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
  },
  seed: (ctx) => {
    for (const node of [1, 2]) {
      ctx.insert("node_nvidia_vgpu_devices", { name: `GRID A100-4C (node${node})`, node, resource_group: "5b7c1d2e-3f40-4a51-8b62-9c7d8e9f0a11", profile: "A100-4C", framebuffer_mb: 4096, available: 10 });
    }
  },
};

export const filesTable: TableDef = {
  name: "files",
  description: "stored media files (ISO images, disk images) usable as media_source",
  keyType: "int",
  unique: { field: "name", message: "a file with that name exists" },
  fields: {
    name: { type: "string", required: true, maxLength: 255, summary: true },
    type: { type: "string", default: "iso", enum: { iso: "ISO image", qcow2: "QCOW2", raw: "Raw", vmdk: "VMDK", vhd: "VHD", vhdx: "VHDX", ova: "OVA", ovf: "OVF", img: "Image", other: "Other" } },
    description: { type: "text", default: "" },
    filesize: { type: "uint64", default: 0 },
    allocated_bytes: { type: "uint64", readOnly: true, compute: (_ctx, row) => row.filesize },
    used_bytes: { type: "uint64", readOnly: true, compute: (_ctx, row) => row.filesize },
    preferred_tier: { type: "string", default: "1", enum: { 1: "1", 2: "2", 3: "3", 4: "4", 5: "5" } },
    public_link: { type: "string", readOnly: true, default: "" },
    modified: { type: "modified", readOnly: true },
    creator: { type: "string", readOnly: true, default: "system" },
  },
  seed: (ctx) => {
    const files = [
      { name: "ubuntu-24.04-live-server-amd64.iso", type: "iso", filesize: 2.6 * GiB },
      { name: "debian-12-netinst.iso", type: "iso", filesize: 0.6 * GiB },
      { name: "virtio-win.iso", type: "iso", filesize: 0.7 * GiB },
      { name: "debian-12-genericcloud-amd64.qcow2", type: "qcow2", filesize: 2 * GiB },
    ];
    for (const f of files) ctx.insert("files", { ...f, filesize: Math.round(f.filesize), description: "", preferred_tier: "1", public_link: "", modified: ctx.nowSeconds(), creator: "system" });
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
      overwrite: { description: "mark the file rewritten", handler: (ctx, { target }) => void ctx.update("files", target!.$key, { modified: ctx.nowSeconds() }) },
      add_link: {
        description: "create a public download link",
        handler: (ctx, { target }) => {
          const link = `/pub/${randomBytes(12).toString("hex")}/${target!.name}`;
          ctx.update("files", target!.$key, { public_link: link });
          return { body: { response: { link } } };
        },
      },
      delete_link: { description: "remove the public link", handler: (ctx, { target }) => void ctx.update("files", target!.$key, { public_link: "" }) },
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
    ctx.insert("system", { yb_version: API_VERSION_TEXT, os_version: API_VERSION_TEXT, cloud_name: "vplatform-emulator", branch: "stable" });
  },
};
