import { createRow, readRow, type RowMapping } from "../../reconcile/automation/rows";
import { markerOf } from "../../reconcile/createMarker";
import { str } from "../../reconcile/platform";
import { assertAdoptable, assertRecoveredMatches, findAdoptable } from "../framework/adoption";
import { defineResource } from "../framework/defineResource";
import { resolveTimeouts } from "../framework/operationTimeouts";
import { errorStatus } from "../../reconcile/platform";
import type { Session } from "../../reconcile/session";
import { rowExists } from "../framework/checkListing";
import type { CheckFailure } from "../framework/checkInputs";
import { describeGrant, grantFilter, granteeIdentity } from "./platform";
import { EVERY_TABLE, type PermissionInputs, permissionInputsSchema, permissionShape } from "./schema";
import { PERMISSION_TABLE } from "../../schemas/tables";

/**
 * At preview: the table is one of the platform's and the row one of its rows (a table no list answers is unknown).
 * Rows this session made, and a table and row unchanged since the last run, are not looked up.
 */
export async function grantTargetProblems(api: Session, p: Pick<PermissionInputs, "table" | "row">): Promise<CheckFailure[]> {
  if (p.table === EVERY_TABLE) return [];
  try {
    if (p.row === undefined) {
      await api.list(p.table, { fields: "$key", limit: 1 });
      return [];
    }
    if (api.created(p.table, p.row) || (await rowExists(api, p.table, "$key", p.row))) return [];
    return [
      {
        property: "row",
        reason: `row: ${p.table} has no row '${p.row}': give the key of an existing row (a VM's id for vms), or leave row out for every row`,
      },
    ];
  } catch (err) {
    if (errorStatus(err) !== 404) throw err;
    return [
      {
        property: "table",
        reason: `table: '${p.table}' is not a table of the platform: give one such as vms, vnets or machine_snapshots, or / for every table`,
      },
    ];
  }
}

export const permission = defineResource<PermissionInputs, PermissionInputs>({
  token: "Permission",
  table: PERMISSION_TABLE,
  description:
    "Grants a user or a group rights on a table (every row) or on one row of it: list, read, create, modify, delete. Changing the grantee, table or row replaces the grant; changing a right updates it in place.",
  schema: permissionInputsSchema,
  shape: permissionShape,
  // No name, no field to mark: found after a lost answer by its fields (the same grant made again is the same grant).
  // A replacement changes the grantee, table or row: it never clashes with its predecessor, so it is made first
  // (the user is never without the grant in between).
  names: "free",
  marker: "none",
  hooks: ({ rows: permissionRows }) => ({
    /** The table and row exist (read-only look-ups; unknown or unchanged values are not looked up). */
    async verify(api, inputs, unknown, olds) {
      if (unknown.has("table") || unknown.has("row")) return [];
      if (olds && olds.table === inputs.table && olds.row === inputs.row) return [];
      return grantTargetProblems(api, inputs);
    },

    async create(api, inputs) {
      const what = describeGrant(inputs);
      const identity = await granteeIdentity(api, inputs);
      if (inputs.adopt !== undefined && inputs.adopt !== false) {
        const live = (key: string) => readRow(api, permissionRows, key, inputs);
        const key = await findAdoptable(what, inputs.adopt, {
          byKey: async (k) => ((await live(k)) ? k : undefined),
          byName: async () => {
            const [row] = await api.list(PERMISSION_TABLE, { filter: grantFilter(identity, inputs), fields: "$key", limit: 1 });
            return row ? str(row.$key) : undefined;
          },
        });
        assertAdoptable(what, inputs, (await live(key))?.inputs ?? {});
        return { id: key, outs: inputs };
      }
      // Sent with the grantee's identity (and row 0 for a whole table, so a lost answer is never taken for a row's grant).
      // One grant per grantee, table and row (the platform answers 409 to a second): no look before the first send.
      const withIdentity: RowMapping<PermissionInputs> = {
        ...permissionRows,
        what,
        toApiBody: (i, mode) =>
          mode === "update" ? permissionRows.toApiBody(i, mode) : { ...permissionRows.toApiBody(i, "create"), identity },
        namesUniqueOnPlatform: true,
      };
      const created = await createRow(api, withIdentity, inputs, {
        marker: markerOf(inputs),
        budgetMs: resolveTimeouts(inputs.timeouts).create * 1000,
      });
      if (created.recovered)
        assertRecoveredMatches(what, inputs, (await readRow(api, permissionRows, created.key, inputs))?.inputs ?? {}, created.key, inputs);
      return { id: created.key, outs: inputs };
    },
  }),
});
