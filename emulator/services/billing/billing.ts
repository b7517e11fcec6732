/** `billing`: bills over a from–to range, made by the `generate` action of `billing_actions`. */
import type { FieldDef } from "../../model/types";
import { listedRows, table } from "../../model/tableParts";
import { isNodeMachine } from "../compute/machineState";
import { BILLING } from "../../model/names/billing";
import { COMPUTE } from "../../model/names/compute";

const BILLED_FIGURES = [
  "total_nodes",
  "online_nodes",
  "running_machines",
  "total_cores",
  "online_cores",
  "used_cores",
  "total_ram",
  "online_ram",
  "used_ram",
  "phys_ram_used",
  "phys_vram_used",
  "phys_total_cpu",
  "gpus",
  "gpus_total",
  "gpus_idle",
  "vgpus",
  "vgpus_total",
  "vgpus_idle",
  "storage_datapoints",
  "workload_datapoints",
  ...[0, 1, 2, 3, 4, 5].flatMap((tier) => [`tier_${tier}_total`, `tier_${tier}_used`]),
];

export const billingTable = table(BILLING.billing, {
  description: "bills with a from–to date range",
  ...listedRows("int", "delete"),
  fields: {
    from: { type: "uint64", readOnly: true, summary: true },
    to: { type: "uint64", readOnly: true, summary: true },
    created: { type: "created", readOnly: true },
    vms: { type: "uint32", readOnly: true, description: "VMs at generation time" },
    running_vms: { type: "uint32", readOnly: true },
    description: { type: "text", readOnly: true, default: "" },
    sent: { type: "bool", readOnly: true, default: false },
    // Usage figures of the billed period, as the maker's clients read them (this emulator bills no usage: zeros).
    ...Object.fromEntries(BILLED_FIGURES.map((name) => [name, { type: "uint64", readOnly: true, default: 0 } satisfies FieldDef])),
  },
});

export const billingActionsTable = table(BILLING.billing_actions, {
  description: "billing actions: generate",
  keyType: "int",
  operations: ["create"],
  fields: {},
  actions: {
    defaultAction: "generate",
    actions: {
      generate: {
        description: "create a bill from the end of the previous one (or one day back) to now",
        handler: (ctx) => {
          const previous = ctx.all(BILLING.billing).reduce((max, b) => Math.max(max, Number(b.to)), 0);
          const now = ctx.nowSeconds();
          const bill = ctx.insert(BILLING.billing, {
            from: previous || now - 86400,
            to: now,
            created: now,
            vms: ctx.find(COMPUTE.vms, (v) => v.is_snapshot !== true).length,
            running_vms: ctx.find(COMPUTE.machine_status, (s) => s.running === true && !isNodeMachine(ctx, s.machine)).length,
            description: "",
            sent: false,
            ...Object.fromEntries(BILLED_FIGURES.map((name) => [name, 0])),
          });
          return { body: { $key: String(bill.$key) } };
        },
      },
    },
  },
});
