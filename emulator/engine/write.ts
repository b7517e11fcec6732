/**
 * The write side of the generic table engine: creating, changing and deleting rows, driven entirely by the
 * table definition (validation, defaults, uniqueness, hooks). Every check runs before the first change, so a
 * refused write leaves the state untouched. Who may write is not decided here (services/identity/access.ts).
 */
import { randomHex, type EmulatorContext } from "./context";
import { ApiError } from "../model/errors";
import type { Caller, Row, TableDef } from "../model/types";
import { validateBody } from "./validate";

export const refExists = (ctx: EmulatorContext) => (table: string, key: unknown) => ctx.get(table, key) !== undefined;

/** Fills every absent stored field of a row being made with its default (null when it has none); returns the row. */
export function applyDefaults(ctx: EmulatorContext, def: TableDef, row: Record<string, unknown>): Record<string, unknown> {
  for (const [name, field] of Object.entries(def.fields)) {
    if (row[name] !== undefined || field.compute) continue;
    if (field.type === "created" || field.type === "modified") row[name] = ctx.nowSeconds();
    else if (typeof field.default === "function") row[name] = field.default(row, ctx);
    else if (field.default !== undefined) row[name] = structuredClone(field.default);
    else if (field.type !== "rows") row[name] = null;
  }
  return row;
}

export function checkUnique(ctx: EmulatorContext, def: TableDef, row: Row): void {
  const rule = def.unique;
  if (!rule || row[rule.field] === null || row[rule.field] === undefined) return;
  if (rule.scope && !rule.scope(row)) return;
  const clash = ctx.find(
    def.name,
    (other) => other.$key !== row.$key && other[rule.field] === row[rule.field] && (!rule.scope || rule.scope(other)),
  );
  if (clash.length) throw new ApiError(rule.status ?? 409, rule.message);
}

/** The creation answer of the spec: location, dbpath, $row, $key (+ response). */
export function creationBody(table: string, row: Row, rowNumber: number, response?: Record<string, unknown>): Record<string, unknown> {
  return {
    location: `/v4/${table}/${row.$key}`,
    dbpath: `${table}/${row.$key}`,
    $row: rowNumber,
    $key: String(row.$key), // the spec: a string in creation answers, whatever the table's key type
    ...(response ? { response } : {}),
  };
}

/**
 * Validates and stores a new row (as POST does), running the table's hooks.
 * Also used by actions that create rows (clone, snapshot) so the same rules apply.
 */
export function createRow(
  ctx: EmulatorContext,
  def: TableDef,
  body: unknown,
  caller: Caller,
  authorizeDraft?: (draft: Row) => void,
): { row: Row; response?: Record<string, unknown> } {
  const values = validateBody(def, body, "create", refExists(ctx));
  applyDefaults(ctx, def, values);
  const $key = def.keyType === "int" ? ctx.store(def.name).nextKey : (def.newKey?.(ctx, values) ?? randomHex(40));
  const draft = { ...values, $key } as Row;
  authorizeDraft?.(draft);
  checkUnique(ctx, def, draft);
  def.hooks?.validate?.(ctx, draft, undefined, caller);
  def.hooks?.beforeCreate?.(ctx, draft, caller);
  const row = ctx.insert(def.name, draft);
  const response = def.hooks?.afterCreate?.(ctx, row, caller) ?? undefined;
  return { row, response };
}

/** Deletes a row with its hooks (cascades live in afterDelete hooks). */
export function deleteRow(ctx: EmulatorContext, def: TableDef, row: Row, caller: Caller): void {
  def.hooks?.beforeDelete?.(ctx, row, caller);
  ctx.remove(def.name, row.$key);
  def.hooks?.afterDelete?.(ctx, row, caller);
}
