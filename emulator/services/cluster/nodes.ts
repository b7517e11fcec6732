import { listedRows, table } from "../../model/tableParts";
import { nodeUsage } from "../compute/capacity";
import { createMachineFor } from "../compute/machines";
import { API_VERSION_TEXT } from "../system/version";
import { CLUSTER } from "../../model/names/cluster";
import { COMPUTE } from "../../model/names/compute";
import { NETWORK } from "../../model/names/network";

const NODE_SPECS = { cores: 32, ram: 131072, cpu: "AMD EPYC 7543 32-Core Processor", cpu_speed: "2.8 GHz", model: "emulated" };

export const nodesTable = table(CLUSTER.nodes, {
  description: "physical nodes (emulated) with their CPU cores and RAM (MB); `id` = `$key`, which migrations name",
  ...listedRows("int"),
  fields: {
    id: { type: "uint32", compute: (_ctx, row) => row.$key, description: "node id (same as the key)" },
    name: { type: "string", readOnly: true, summary: true },
    description: { type: "text", readOnly: true, default: "" },
    physical: { type: "bool", readOnly: true, default: true },
    cluster: { type: "row", ref: CLUSTER.clusters, readOnly: true },
    machine: { type: "row", ref: COMPUTE.machines, readOnly: true, default: null },
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
    pxe_vnet: { type: "row", ref: NETWORK.vnets, readOnly: true, default: null },
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
      const node = ctx.insert(CLUSTER.nodes, row);
      ctx.update(CLUSTER.nodes, node.$key, { machine: createMachineFor(ctx, node, "node") });
    }
  },
});
