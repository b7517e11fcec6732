/**
 * Catalog repositories (with their `refresh` action) and the catalogs they publish. Their behaviour is the
 * emulator's (plausible) choice, documented in README.md.
 */
import { randomHex } from "../../engine/context";
import { applyDefaults, createRow } from "../../engine/write";
import { SYSTEM_CALLER } from "../../model/callers";
import { enabledField, listedRows, namedFields, table } from "../../model/tableParts";
import { CATALOG } from "../../model/names/catalog";

export const catalogRepositoriesTable = table(CATALOG.catalog_repositories, {
  description: "catalog repositories",
  keyType: "int",
  fields: {
    ...namedFields(),
    url: { type: "string", default: "" },
    type: { type: "string", default: "remote", enum: { local: "Local", remote: "Remote", provider: "Provider", yottabyte: "Marketplace" } },
    user: { type: "string", default: "" },
    password: { type: "string", hidden: true, default: "", maxLength: 1024 },
    allow_insecure: { type: "bool", default: false },
    auto_refresh: { type: "bool", default: true },
    enabled: enabledField(),
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
      SYSTEM_CALLER,
    );
  },
});

/** Catalogs of a repository (read-only here: the emulator's repositories publish a fixed set). */
export const catalogsTable = table(CATALOG.catalogs, {
  description: "catalogs of a catalog repository (read-only)",
  ...listedRows("int"),
  fields: {
    id: { type: "string", readOnly: true, default: () => randomHex(40), description: "global identifier (40 hex)" },
    repository: { type: "row", ref: CATALOG.catalog_repositories, readOnly: true, summary: true },
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
    for (const repository of ctx.find(CATALOG.catalog_repositories, (r) => r.type === "yottabyte")) {
      const row = { repository: repository.$key, name: "Operating systems", description: "emulated installer images" };
      ctx.insert(CATALOG.catalogs, applyDefaults(ctx, catalogsTable, row));
    }
  },
});

export const catalogRepositoryActionsTable = table(CATALOG.catalog_repository_actions, {
  description: "catalog repository actions: refresh",
  keyType: "int",
  operations: ["create"],
  fields: {},
  actions: {
    targetField: "repository",
    targetTable: CATALOG.catalog_repositories,
    defaultAction: "refresh",
    actions: {
      refresh: {
        description: "refresh the repository: status refreshing, then online",
        handler: (ctx, { target }) => {
          ctx.update(CATALOG.catalog_repositories, target!.$key, { status: "refreshing" });
          ctx.schedule(2000, () => {
            if (ctx.get(CATALOG.catalog_repositories, target!.$key)) {
              ctx.update(CATALOG.catalog_repositories, target!.$key, { status: "online", last_refreshed: ctx.nowSeconds() });
            }
          });
        },
      },
    },
  },
});
