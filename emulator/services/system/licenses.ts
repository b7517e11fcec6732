/**
 * `licenses`: the site's licenses, read-only, with the fields the maker's clients read (pyVergeOS' license
 * service). One license, valid for a year from the first start, is seeded.
 */
import { applyDefaults } from "../../engine/write";
import type { TableDef } from "../../model/types";
import { listedRows } from "../../model/tableParts";
import { SYSTEM } from "./names";
import { SYSTEM_CALLER } from "../../model/callers";

const YEAR_SECONDS = 365 * 86400;

export const licensesTable: TableDef = {
  name: SYSTEM.licenses,
  description: "licenses of the site (read-only); times in seconds since the epoch",
  ...listedRows("int"),
  fields: {
    name: { type: "string", readOnly: true, summary: true },
    description: { type: "text", readOnly: true, default: "" },
    added: { type: "uint64", readOnly: true },
    added_by: { type: "string", readOnly: true, default: "" },
    issued: { type: "uint64", readOnly: true },
    valid_from: { type: "uint64", readOnly: true },
    valid_until: { type: "uint64", readOnly: true },
    features: { type: "json", readOnly: true, default: {}, description: "licensed features and their limits" },
    allow_branding: { type: "bool", readOnly: true, default: false },
    auto_renewal: { type: "bool", readOnly: true, default: false },
    note: { type: "text", readOnly: true, default: "" },
  },
  seed: (ctx) => {
    const now = ctx.nowSeconds();
    const row = {
      name: "Emulator license",
      description: "the emulator's own license",
      added: now,
      added_by: SYSTEM_CALLER.user,
      issued: now,
      valid_from: now,
      valid_until: now + YEAR_SECONDS,
      features: { nodes: 4, tenants: 0, sites: 1 },
      auto_renewal: true,
    };
    ctx.insert(SYSTEM.licenses, applyDefaults(ctx, licensesTable, row));
  },
};
