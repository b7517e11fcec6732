/**
 * The write side of the generic table engine: POST (create or action), PUT and
 * DELETE, driven entirely by the table definition (validation, defaults,
 * uniqueness, hooks) plus the permission check. Every check runs before the
 * first change, so a refused request leaves the state untouched.
 */
import type { ActionDef, Caller, Operation, Role, Row, TableDef } from "../tables/types";
import { coerceField, validateBody } from "../tables/validate";
import { randomHex, type EmulatorContext } from "./context";
import { ApiError, notFound, validationError } from "./errors";
import { readRow } from "./read";

const ROLE_RANK: Record<Role, number> = { readonly: 0, vmoperator: 1, admin: 2 };

export function hasRole(caller: Caller, needed: Role): boolean {
  return ROLE_RANK[caller.role] >= ROLE_RANK[needed];
}

/** 405 for operations the table does not offer, 403 for callers below the table's role. */
export function authorize(def: TableDef, op: Operation, caller: Caller): void {
  if (def.operations && !def.operations.includes(op)) {
    throw new ApiError(405, `operation ${op} not permitted on ${def.name}`);
  }
  const needed = op === "list" || op === "get" ? (def.readRole ?? "readonly") : (def.writeRole ?? "admin");
  if (!hasRole(caller, needed)) throw new ApiError(403, `permission denied: ${op} on ${def.name} requires ${needed}`);
}

export interface EngineResult {
  status: number;
  body?: unknown;
}

export function requireRow(ctx: EmulatorContext, table: string, key: unknown, during = "get"): Row {
  const row = ctx.get(table, key);
  if (!row) throw notFound(`/v4/${table}/${String(key)}`, during);
  return row;
}

const refExists = (ctx: EmulatorContext) => (table: string, key: unknown) => ctx.get(table, key) !== undefined;

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

function checkUnique(ctx: EmulatorContext, def: TableDef, row: Row): void {
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
): { row: Row; response?: Record<string, unknown> } {
  const values = validateBody(def, body, "create", refExists(ctx));
  applyDefaults(ctx, def, values);
  const $key = def.keyType === "int" ? ctx.store(def.name).nextKey : (def.newKey?.(ctx, values) ?? randomHex(40));
  const draft = { ...values, $key } as Row;
  checkUnique(ctx, def, draft);
  def.hooks?.validate?.(ctx, draft, undefined, caller);
  def.hooks?.beforeCreate?.(ctx, draft, caller);
  const row = ctx.insert(def.name, draft);
  const response = def.hooks?.afterCreate?.(ctx, row, caller) ?? undefined;
  return { row, response };
}

export function postToTable(ctx: EmulatorContext, def: TableDef, body: unknown, caller: Caller): EngineResult {
  authorize(def, "create", caller);
  if (def.actions) return runAction(ctx, def, body, caller);
  const { row, response } = createRow(ctx, def, body, caller);
  const store = ctx.store(def.name);
  const rowNumber = typeof row.$key === "number" ? row.$key : store.rows.size;
  return { status: 201, body: creationBody(def.name, row, rowNumber, response) };
}

export function updateRow(ctx: EmulatorContext, def: TableDef, key: string, body: unknown, caller: Caller): EngineResult {
  authorize(def, "update", caller);
  const row = requireRow(ctx, def.name, key, "update");
  const changes = validateBody(def, body, "update", refExists(ctx));
  const merged = { ...row, ...changes } as Row;
  checkUnique(ctx, def, merged);
  def.hooks?.validate?.(ctx, merged, row, caller);
  def.hooks?.beforeUpdate?.(ctx, row, changes, caller);
  const previous = { ...row };
  for (const [name, field] of Object.entries(def.fields)) if (field.type === "modified") changes[name] = ctx.nowSeconds();
  const updated = ctx.update(def.name, row.$key, changes);
  def.hooks?.afterUpdate?.(ctx, updated, previous, caller);
  return { status: 200, body: readRow(ctx, def, updated, undefined) };
}

/** Deletes a row with its hooks (cascades live in afterDelete hooks). */
export function deleteRow(ctx: EmulatorContext, def: TableDef, row: Row, caller: Caller): void {
  def.hooks?.beforeDelete?.(ctx, row, caller);
  ctx.remove(def.name, row.$key);
  def.hooks?.afterDelete?.(ctx, row, caller);
}

export function deleteByKey(ctx: EmulatorContext, def: TableDef, key: string, caller: Caller): EngineResult {
  authorize(def, "delete", caller);
  deleteRow(ctx, def, requireRow(ctx, def.name, key, "delete"), caller);
  return { status: 200 };
}

/** `params` arrives as an object or (some clients) a JSON-encoded object. */
function paramsObject(value: unknown): Record<string, unknown> {
  if (value === undefined || value === null || value === "") return {};
  let parsed = value;
  if (typeof value === "string") {
    try {
      parsed = JSON.parse(value);
    } catch {
      throw validationError("params", "must be a JSON object");
    }
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw validationError("params", "must be a JSON object");
  return parsed as Record<string, unknown>;
}

function validateParams(def: TableDef, action: ActionDef, params: Record<string, unknown>): Record<string, unknown> {
  if (!action.params) return params;
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(params)) {
    const field = Object.hasOwn(action.params, name) ? action.params[name] : undefined;
    if (!field) throw validationError(`params.${name}`, "unknown parameter", 422);
    if (value !== undefined) out[name] = coerceField(def, `params.${name}`, field, value);
  }
  for (const [name, field] of Object.entries(action.params)) {
    if (field.required && (out[name] === undefined || out[name] === null || out[name] === "")) {
      throw validationError(`params.${name}`, "is required");
    }
  }
  return out;
}

/** POST to an action table: `{<target>: key, action, params}`. */
export function runAction(ctx: EmulatorContext, def: TableDef, body: unknown, caller: Caller): EngineResult {
  const spec = def.actions!;
  if (body === undefined || body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new ApiError(400, "request body must be a JSON object", "err");
  }
  const input = body as Record<string, unknown>;
  const allowed = new Set(["action", "params", ...(spec.targetField ? [spec.targetField] : [])]);
  for (const name of Object.keys(input)) if (!allowed.has(name)) throw validationError(name, `unknown field of ${def.name}`);
  const requested = input.action ?? spec.defaultAction;
  if (typeof requested !== "string" || requested === "") throw validationError("action", "is required");
  const name = spec.aliases?.[requested] ?? requested;
  const action = Object.hasOwn(spec.actions, name) ? spec.actions[name] : undefined;
  if (!action) {
    throw validationError("action", `'${requested}' is not a valid option (valid: ${Object.keys(spec.actions).join(", ")})`);
  }
  if (action.role && !hasRole(caller, action.role)) throw new ApiError(403, `permission denied: action ${name} requires ${action.role}`);
  let target: Row | undefined;
  if (spec.targetField) {
    const key = input[spec.targetField];
    if (key === undefined || key === null || key === "") {
      if (spec.targetRequired !== false) throw validationError(spec.targetField, "is required");
    } else {
      target = ctx.get(spec.targetTable!, spec.parseTarget ? spec.parseTarget(key) : key);
      if (!target) throw notFound(`/v4/${spec.targetTable}/${String(key)}`, "action");
    }
  }
  const params = validateParams(def, action, paramsObject(input.params));
  const result = action.handler(ctx, { target, params, caller }) ?? {};
  return { status: result.status ?? 201, body: result.body ?? {} };
}
