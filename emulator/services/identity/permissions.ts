/**
 * `permissions`: grants of list, read, create, modify and delete to an identity (a user's or a group's `identity`)
 * on a table (`row` 0: every row; table `/`: every table) or on one row, with the field names the maker's clients
 * send (pyVergeOS' permission manager, the Terraform provider's `vergeio_permission`). What each right allows is
 * decided in grants.ts; this table keeps the grants valid: an identity that exists, a table this
 * platform has, a row that exists, one grant per identity, table and row.
 */
import { ApiError, validationError } from "../../model/errors";
import { identityOwner } from "./grants";
import { table } from "../../model/tableParts";
import { IDENTITY } from "../../model/names/identity";

const right = (description: string, dflt = false) => ({ type: "bool" as const, default: dflt, summary: true, description });

export const permissionsTable = table(IDENTITY.permissions, {
  description: "grants to a user or group identity on a table (row 0) or one row: list, read, create, modify, delete",
  keyType: "int",
  fields: {
    identity: { type: "uint32", required: true, createOnly: true, summary: true, description: "the user's or group's identity" },
    table: { type: "string", required: true, createOnly: true, summary: true, description: "a table name, or / for every table" },
    row: { type: "string", default: "0", createOnly: true, summary: true, description: "a row key of the table; 0 = every row" },
    list: right("may see the rows in lists (read implies it)", true),
    read: right("may read the rows"),
    create: right("may create rows (on a row: add and change its children: hardware, snapshots)"),
    modify: right("may change the rows and run their actions"),
    delete: right("may delete the rows"),
    identity_table: {
      type: "string",
      compute: (_ctx, row) => identityOwner(Number(row.identity)).table,
      description: "users or groups: whose identity this is",
    },
    identity_key: {
      type: "uint32",
      compute: (_ctx, row) => identityOwner(Number(row.identity)).key,
      description: "the user's or group's key",
    },
    created: { type: "created", readOnly: true },
  },
  hooks: {
    validate: (ctx, row) => {
      const owner = identityOwner(Number(row.identity));
      if (!ctx.get(owner.table, owner.key)) throw validationError("identity", "names no user or group identity", 422);
      const table = String(row.table);
      if (table !== "/" && !ctx.tables.has(table)) throw validationError("table", `'${table}' is not a table of this platform`, 422);
      const key = String(row.row ?? "0");
      if (key !== "0" && (table === "/" || !ctx.get(table, key))) throw validationError("row", `${table}/${key} does not exist`, 422);
      const clash = ctx.find(
        IDENTITY.permissions,
        (g) => g.$key !== row.$key && Number(g.identity) === Number(row.identity) && g.table === table && String(g.row) === key,
      );
      if (clash.length) throw new ApiError(409, "a permission for that identity, table and row exists");
      row.row = key;
    },
  },
});
