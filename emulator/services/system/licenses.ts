/**
 * `licenses`: the site's licenses, read-only, with the fields the maker's clients read (pyVergeOS' license
 * service). One license, valid for a year from the first start, is seeded.
 */
import { applyDefaults } from "../../engine/write";
import { listedRows, readOnlyFields, table } from "../../model/tableParts";
import { SYSTEM } from "../../model/names/system";
import { SYSTEM_CALLER } from "../../model/callers";

const YEAR_SECONDS = 365 * 86400;

export const licensesTable = table(SYSTEM.licenses, {
  description: "licenses of the site (read-only); times in seconds since the epoch",
  ...listedRows("int"),
  fields: readOnlyFields({
    name: { type: "string", summary: true },
    description: { type: "text", default: "" },
    added: { type: "uint64" },
    added_by: { type: "string", default: "" },
    issued: { type: "uint64" },
    valid_from: { type: "uint64" },
    valid_until: { type: "uint64" },
    features: { type: "json", default: {}, description: "licensed features and their limits" },
    allow_branding: { type: "bool", default: false },
    auto_renewal: { type: "bool", default: false },
    note: { type: "text", default: "" },
  }),
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
});
