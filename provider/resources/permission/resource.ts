import { createRow, readRow, type RowMapping } from "../../reconcile/automation/rows";
import { markerOf } from "../../reconcile/createMarker";
import { str } from "../../reconcile/platform";
import { assertAdoptable, assertRecoveredMatches, findAdoptable } from "../framework/adoption";
import { rowBehaviour } from "../framework/automationRow";
import { defineResource } from "../framework/defineResource";
import { resolveTimeouts } from "../framework/operationTimeouts";
import { describeGrant, grantBody, grantFilter, grantTargetProblems, identityOf, permissionRows } from "./platform";
import { PERMISSION_TABLE, type PermissionInputs, permissionInputsSchema, permissionShape, toPermissionApiBody } from "./schema";

const rows = rowBehaviour(permissionShape, permissionRows);

export const permission = defineResource<PermissionInputs, PermissionInputs>({
  token: "Permission",
  table: PERMISSION_TABLE,
  description:
    "Grants a user or a group rights on a table (every row) or on one row of it: list, read, create, modify, delete. Changing the grantee, table or row replaces the grant; changing a right updates it in place.",
  schema: permissionInputsSchema,

  /** The table and row exist (read-only look-ups; unknown or unchanged values are not looked up). */
  async verify(api, inputs, unknown, olds) {
    if (unknown.has("table") || unknown.has("row")) return [];
    if (olds && olds.table === inputs.table && olds.row === inputs.row) return [];
    return grantTargetProblems(api, inputs);
  },

  ...rows,

  async create(api, inputs) {
    const what = describeGrant(inputs);
    const identity = await identityOf(api, inputs);
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
    const withIdentity: RowMapping<PermissionInputs> = {
      ...permissionRows,
      what,
      toApiBody: (i, mode) => (mode === "update" ? toPermissionApiBody(i, mode) : grantBody(i as PermissionInputs, identity)),
    };
    const created = await createRow(api, withIdentity, inputs, {
      marker: markerOf(inputs),
      budgetMs: resolveTimeouts(inputs.timeouts).create * 1000,
    });
    if (created.recovered)
      assertRecoveredMatches(what, inputs, (await readRow(api, permissionRows, created.key, inputs))?.inputs ?? {}, created.key, inputs);
    return { id: created.key, outs: inputs };
  },
});
