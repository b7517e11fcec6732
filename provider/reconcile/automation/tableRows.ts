/**
 * Rows of any table of the platform, read-only: the generic look-up for the
 * tables that have no resource of their own (clusters, certificates,
 * licenses, logs ...). One GET with the caller's fields, filter, sort and limit.
 */
import type { GetTableRowsArgs } from "../../schemas/automationLookups";
import type { PlatformApi, Row } from "../platform";

export function tableRows(api: PlatformApi, args: GetTableRowsArgs): Promise<Row[]> {
  // Empty options are left out of the query: no fields means the table's default fields.
  return api.list(args.table, { fields: args.fields.join(","), filter: args.filter, sort: args.sort, limit: args.limit });
}
