/**
 * What an unknown field name in `fields`, `filter` or `sort` does: the request is refused with 400
 * naming the option, the name and the table (`{"err": "fields: unknown field 'colour' of vms"}`),
 * as the platform refuses unknown fields in bodies. Reading a misspelt name as null or matching
 * nothing hides the mistake (a filter on a misspelt field would select no row, and a delete-by-
 * filter script would then do nothing, silently). Paths follow `row`/`rows` references (`#`);
 * `$key`, `$display` and `$row` exist in every table; past a `json` field or a reference to a
 * table this emulator does not have, any path is accepted.
 */
import { queryError, type FieldSelection, type FilterExpr, type QueryPart, type SortKey } from "../query";
import type { FieldDef, TableDef } from "../model/types";
import type { EmulatorContext } from "./context";

const EVERY_TABLE = new Set(["$key", "$display", "$row"]);

export function checkPath(ctx: EmulatorContext, def: TableDef, path: readonly string[], part: QueryPart): void {
  let table: TableDef | undefined = def;
  for (let i = 0; i < path.length && table; i++) {
    const name = path[i];
    if (EVERY_TABLE.has(name)) return;
    const field: FieldDef | undefined = Object.hasOwn(table.fields, name) ? table.fields[name] : undefined;
    if (!field) throw queryError(part, `unknown field '${path.slice(0, i + 1).join("#")}' of ${table.name}`);
    if (field.type !== "row" && field.type !== "rows") return;
    table = field.ref ? ctx.tables.get(field.ref)?.def : undefined;
  }
}

export function checkSelection(ctx: EmulatorContext, def: TableDef, selection: readonly FieldSelection[]): void {
  for (const entry of selection) {
    if (entry.kind !== "field") continue;
    checkPath(ctx, def, entry.path, "fields");
    if (!entry.sub) continue;
    const target = refTarget(ctx, def, entry.path);
    if (target) checkSelection(ctx, target, entry.sub);
  }
}

export function checkFilter(ctx: EmulatorContext, def: TableDef, expr: FilterExpr): void {
  if (expr.kind === "all") return;
  if ("items" in expr) for (const item of expr.items) checkFilter(ctx, def, item);
  else checkPath(ctx, def, expr.field, "filter");
}

export function checkSort(ctx: EmulatorContext, def: TableDef, keys: readonly SortKey[]): void {
  for (const key of keys) checkPath(ctx, def, key.field, "sort");
}

/** The table a path's last reference leads to (for `path[sub,...]` selections). */
function refTarget(ctx: EmulatorContext, def: TableDef, path: readonly string[]): TableDef | undefined {
  let table: TableDef | undefined = def;
  for (const name of path) {
    const field: FieldDef | undefined = table && Object.hasOwn(table.fields, name) ? table.fields[name] : undefined;
    if (!field?.ref) return undefined;
    table = ctx.tables.get(field.ref)?.def;
  }
  return table;
}
