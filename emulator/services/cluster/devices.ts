/** What the nodes offer to attach: hardware resource groups (GPUs, PCI, USB) and NVIDIA vGPU devices. */
import type { FieldDef } from "../../model/types";
import { listedRows, table, timestampFields } from "../../model/tableParts";
import { CLUSTER } from "../../model/names/cluster";

export const resourceGroupsTable = table(CLUSTER.resource_groups, {
  description: "hardware devices (GPUs, PCI, USB) that can be attached, keyed by UUID",
  ...listedRows("string"),
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
    ...timestampFields(),
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
        type: CLUSTER.node_nvidia_vgpu_devices,
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
      ctx.insert(CLUSTER.resource_groups, {
        $key: g.uuid,
        ...g,
        enabled: true,
        settings_args: {},
        key_args: {},
        created: now,
        modified: now,
      });
    }
  },
});

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

export const vgpuDevicesTable = table(CLUSTER.node_nvidia_vgpu_devices, {
  description: "NVIDIA vGPU devices of the nodes",
  ...listedRows("int"),
  fields: {
    name: { type: "string", readOnly: true, summary: true },
    node: { type: "row", ref: CLUSTER.nodes, readOnly: true },
    resource_group: { type: "row", ref: CLUSTER.resource_groups, readOnly: true },
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
    ...timestampFields(),
  },
  seed: (ctx) => {
    for (const node of [1, 2]) {
      ctx.insert(CLUSTER.node_nvidia_vgpu_devices, {
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
});
