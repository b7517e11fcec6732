/**
 * Tables the spec lists with their action tables only: billing,
 * catalog repositories (and their catalogs) and the clone-ISO builder. Their behaviour is the
 * emulator's (plausible) choice, documented in README.md.
 */
import { randomHex } from "../../engine/context";
import { applyDefaults, createRow } from "../../engine/write";
import { ApiError } from "../../model/errors";
import { isNodeMachine } from "../compute/machineState";
import type { Caller, FieldDef, TableDef } from "../../model/types";

const SYSTEM: Caller = { user: "system", role: "admin", ip: "127.0.0.1" };

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

export const billingTable: TableDef = {
  name: "billing",
  description: "bills with a from–to date range",
  keyType: "int",
  operations: ["list", "get", "delete"],
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
};

export const billingActionsTable: TableDef = {
  name: "billing_actions",
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
          const previous = ctx.all("billing").reduce((max, b) => Math.max(max, Number(b.to)), 0);
          const now = ctx.nowSeconds();
          const bill = ctx.insert("billing", {
            from: previous || now - 86400,
            to: now,
            created: now,
            vms: ctx.find("vms", (v) => v.is_snapshot !== true).length,
            running_vms: ctx.find("machine_status", (s) => s.running === true && !isNodeMachine(ctx, s.machine)).length,
            description: "",
            sent: false,
            ...Object.fromEntries(BILLED_FIGURES.map((name) => [name, 0])),
          });
          return { body: { $key: String(bill.$key) } };
        },
      },
    },
  },
};

export const catalogRepositoriesTable: TableDef = {
  name: "catalog_repositories",
  description: "catalog repositories",
  keyType: "int",
  fields: {
    name: { type: "string", required: true, maxLength: 128, summary: true },
    description: { type: "text", default: "" },
    url: { type: "string", default: "" },
    type: { type: "string", default: "remote", enum: { local: "Local", remote: "Remote", provider: "Provider", yottabyte: "Marketplace" } },
    user: { type: "string", default: "" },
    password: { type: "string", hidden: true, default: "", maxLength: 1024 },
    allow_insecure: { type: "bool", default: false },
    auto_refresh: { type: "bool", default: true },
    enabled: { type: "bool", default: true },
    max_tier: { type: "string", default: "1", enum: { 1: "1", 2: "2", 3: "3", 4: "4", 5: "5" } },
    override_default_scope: {
      type: "string",
      default: "none",
      enum: { none: "None", private: "Private", global: "Global", tenant: "Tenant" },
    },
    status: { type: "string", readOnly: true, default: "online" },
    last_refreshed: { type: "uint64", readOnly: true, default: 0 },
  },
  seed: (ctx) => {
    createRow(
      ctx,
      catalogRepositoriesTable,
      { name: "Marketplace", description: "emulated public catalog", url: "https://catalog.invalid/", type: "yottabyte" },
      SYSTEM,
    );
  },
};

/** Catalogs of a repository (read-only here: the emulator's repositories publish a fixed set). */
export const catalogsTable: TableDef = {
  name: "catalogs",
  description: "catalogs of a catalog repository (read-only)",
  keyType: "int",
  operations: ["list", "get"],
  fields: {
    id: { type: "string", readOnly: true, default: () => randomHex(40), description: "global identifier (40 hex)" },
    repository: { type: "row", ref: "catalog_repositories", readOnly: true, summary: true },
    name: { type: "string", readOnly: true, summary: true },
    description: { type: "text", readOnly: true, default: "" },
    publishing_scope: {
      type: "string",
      readOnly: true,
      default: "global",
      enum: { private: "Private", global: "Global", tenant: "Tenant" },
    },
    enabled: { type: "bool", readOnly: true, default: true },
    created: { type: "created", readOnly: true },
  },
  seed: (ctx) => {
    for (const repository of ctx.find("catalog_repositories", (r) => r.type === "yottabyte")) {
      const row = { repository: repository.$key, name: "Operating systems", description: "emulated installer images" };
      ctx.insert("catalogs", applyDefaults(ctx, catalogsTable, row));
    }
  },
};

export const catalogRepositoryActionsTable: TableDef = {
  name: "catalog_repository_actions",
  description: "catalog repository actions: refresh",
  keyType: "int",
  operations: ["create"],
  fields: {},
  actions: {
    targetField: "repository",
    targetTable: "catalog_repositories",
    defaultAction: "refresh",
    actions: {
      refresh: {
        description: "refresh the repository: status refreshing, then online",
        handler: (ctx, { target }) => {
          ctx.update("catalog_repositories", target!.$key, { status: "refreshing" });
          ctx.schedule(2000, () => {
            if (ctx.get("catalog_repositories", target!.$key)) {
              ctx.update("catalog_repositories", target!.$key, { status: "online", last_refreshed: ctx.nowSeconds() });
            }
          });
        },
      },
    },
  },
};

export const cloneIsoTable: TableDef = {
  name: "clone_iso",
  description: "status of the clone-ISO builder (one row)",
  keyType: "int",
  operations: ["list", "get"],
  fields: {
    status: { type: "string", readOnly: true, summary: true },
    progress: { type: "uint8", readOnly: true },
    file: { type: "row", ref: "files", readOnly: true },
    modified: { type: "modified", readOnly: true },
  },
  seed: (ctx) => {
    ctx.insert("clone_iso", { status: "idle", progress: 0, file: null, modified: ctx.nowSeconds() });
  },
};

const BUILD_MS = 4000;

export const cloneIsoActionsTable: TableDef = {
  name: "clone_iso_actions",
  description: "clone-ISO actions: update (build), delete, cancel",
  keyType: "int",
  operations: ["create"],
  fields: {},
  actions: {
    defaultAction: "update",
    actions: {
      update: {
        description: "build the clone ISO: building, then complete with a files row",
        handler: (ctx) => {
          const row = ctx.all("clone_iso")[0];
          if (row.status === "building") throw new ApiError(409, "a clone ISO build is in progress");
          ctx.update("clone_iso", row.$key, { status: "building", progress: 0, modified: ctx.nowSeconds() });
          ctx.schedule(BUILD_MS, () => {
            if (ctx.get("clone_iso", row.$key)?.status !== "building") return;
            const existing = ctx.find("files", (f) => f.name === "clone.iso")[0];
            const file =
              existing ??
              ctx.insert("files", {
                name: "clone.iso",
                type: "iso",
                description: "system clone ISO",
                filesize: 512 * 1024 ** 2,
                preferred_tier: "1",
                public_link: "",
                modified: ctx.nowSeconds(),
                creator: "system",
              });
            ctx.update("clone_iso", row.$key, { status: "complete", progress: 100, file: file.$key, modified: ctx.nowSeconds() });
          });
        },
      },
      cancel: {
        description: "cancel a running build",
        handler: (ctx) => {
          const row = ctx.all("clone_iso")[0];
          if (row.status !== "building") throw new ApiError(409, "no clone ISO build is running");
          ctx.update("clone_iso", row.$key, { status: "cancelled", progress: 0, modified: ctx.nowSeconds() });
        },
      },
      delete: {
        description: "delete the built clone ISO",
        handler: (ctx) => {
          const row = ctx.all("clone_iso")[0];
          if (row.file !== null) ctx.remove("files", row.file as number);
          ctx.update("clone_iso", row.$key, { status: "idle", progress: 0, file: null, modified: ctx.nowSeconds() });
        },
      },
    },
  },
};
