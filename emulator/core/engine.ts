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
import { grantAllows, grantAllowsTable, hasGrants, identitiesOf, type Right } from "./permissions";
import { readRow } from "./read";

const ROLE_RANK: Record<Role, number> = { none: -1, readonly: 0, vmoperator: 1, admin: 2 };

export function hasRole(caller: Caller, needed: Role): boolean {
  return ROLE_RANK[caller.role] >= ROLE_RANK[needed];
}

const RIGHT_OF: Record<Operation, Right> = { list: "list", get: "read", create: "create", update: "modify", delete: "delete" };

function roleNeeded(def: TableDef, op: Operation): Role {
  return op === "list" || op === "get" ? (def.readRole ?? "readonly") : (def.writeRole ?? "admin");
}

function denied(def: TableDef, op: Operation, row?: Row): ApiError {
  const what = row ? `${def.name}/${String(row.$key)}` : def.name;
  return new ApiError(403, `permission denied: ${op} on ${what} requires ${roleNeeded(def, op)} or a grant of ${RIGHT_OF[op]}`);
}

/**
 * 405 for operations the table does not offer; 403 unless the caller's role or its grants allow the operation:
 * on `row` when given (the row's grants, then its parent's), else on the whole table.
 */
export function authorize(ctx: EmulatorContext, def: TableDef, op: Operation, caller: Caller, row?: Row): void {
  if (def.operations && !def.operations.includes(op)) {
    throw new ApiError(405, `operation ${op} not permitted on ${def.name}`);
  }
  if (hasRole(caller, roleNeeded(def, op))) return;
  const ids = identitiesOf(ctx, caller.user);
  const allowed = row ? grantAllows(ctx, ids, def, row, RIGHT_OF[op]) : grantAllowsTable(ctx, ids, def.name, RIGHT_OF[op]);
  if (!allowed) throw denied(def, op, row);
}

/** The row an operation names, once the caller may run the operation on it (403 before 404, as for roles). */
export function requireAuthorizedRow(ctx: EmulatorContext, def: TableDef, op: Operation, caller: Caller, key: unknown): Row {
  const row = ctx.get(def.name, key);
  if (!row) {
    if (!hasRole(caller, roleNeeded(def, op)) && !grantAllowsTable(ctx, identitiesOf(ctx, caller.user), def.name, RIGHT_OF[op])) {
      authorize(ctx, def, op, caller);
    }
    throw notFound(`/v4/${def.name}/${String(key)}`, op);
  }
  authorize(ctx, def, op, caller, row);
  return row;
}

/** The rows of a list the caller may see: every row when its role reads the table, else those its grants list. */
export function listVisibility(ctx: EmulatorContext, def: TableDef, caller: Caller): ((row: Row) => boolean) | undefined {
  if (def.operations && !def.operations.includes("list")) throw new ApiError(405, `operation list not permitted on ${def.name}`);
  if (hasRole(caller, roleNeeded(def, "list"))) return undefined;
  const ids = identitiesOf(ctx, caller.user);
  if (grantAllowsTable(ctx, ids, def.name, "list")) return undefined;
  return (row) => grantAllows(ctx, ids, def, row, "list");
}

/** A new row, before it is stored: its table's grants and its parent's, and the rows it names (POST, an action's new row). */
export function authorizeNewRow(ctx: EmulatorContext, def: TableDef, draft: Row, caller: Caller): void {
  authorize(ctx, def, "create", caller, draft);
  authorizeReferences(ctx, def, draft, caller);
}

/** A caller checked by its grants may only point a row at rows it may read (a NIC at a vnet, a drive at a file). */
function authorizeReferences(ctx: EmulatorContext, def: TableDef, values: Record<string, unknown>, caller: Caller): void {
  if (hasRole(caller, "readonly")) return;
  const ids = identitiesOf(ctx, caller.user);
  for (const [name, value] of Object.entries(values)) {
    const field = def.fields[name];
    if (field?.type !== "row" || !field.ref || value === null || value === undefined) continue;
    const target = ctx.get(field.ref, value);
    if (target && !grantAllows(ctx, ids, ctx.store(field.ref).def, target, "read")) {
      throw new ApiError(403, `permission denied: ${name} names ${field.ref}/${String(value)}, which this user may not read`);
    }
  }
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

export function postToTable(ctx: EmulatorContext, def: TableDef, body: unknown, caller: Caller): EngineResult {
  // 405, and a caller no grant names refused, before the body is read, as roles always were.
  if (def.operations && !def.operations.includes("create")) authorize(ctx, def, "create", caller);
  if (!hasRole(caller, roleNeeded(def, "create")) && !hasGrants(ctx, identitiesOf(ctx, caller.user))) authorize(ctx, def, "create", caller);
  if (def.actions) return runAction(ctx, def, body, caller);
  // The new row's grants are its table's and its parent's (a NIC on a VM the caller may change).
  const { row, response } = createRow(ctx, def, body, caller, (draft) => authorizeNewRow(ctx, def, draft, caller));
  const store = ctx.store(def.name);
  const rowNumber = typeof row.$key === "number" ? row.$key : store.rows.size;
  return { status: 201, body: creationBody(def.name, row, rowNumber, response) };
}

export function updateRow(ctx: EmulatorContext, def: TableDef, key: string, body: unknown, caller: Caller): EngineResult {
  const row = requireAuthorizedRow(ctx, def, "update", caller, key);
  const changes = validateBody(def, body, "update", refExists(ctx));
  authorizeReferences(ctx, def, changes, caller);
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
  deleteRow(ctx, def, requireAuthorizedRow(ctx, def, "delete", caller, key), caller);
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

/**
 * An action needs the action table's role, or `modify` on its target row (the maker: actions change the row), and
 * what the action itself needs of grants beyond that (`grantNeeds`: an action that adds hardware or a snapshot
 * needs `create` on the target, as a POST of that child would; a clone needs `create` on the vms table).
 */
function authorizeAction(ctx: EmulatorContext, def: TableDef, action: ActionDef, caller: Caller, target: Row | undefined): void {
  if (def.operations && !def.operations.includes("create")) throw new ApiError(405, `operation create not permitted on ${def.name}`);
  if (hasRole(caller, roleNeeded(def, "create"))) return;
  const ids = identitiesOf(ctx, caller.user);
  const targetDef = target && def.actions?.targetTable ? ctx.store(def.actions.targetTable).def : undefined;
  if (target && targetDef && grantAllows(ctx, ids, targetDef, target, "modify")) {
    const needs = action.grantNeeds;
    if (!needs) return;
    const what = "createIn" in needs ? needs.createIn : `${targetDef.name}/${String(target.$key)}`;
    const allowed =
      "createIn" in needs ? grantAllowsTable(ctx, ids, needs.createIn, "create") : grantAllows(ctx, ids, targetDef, target, "create");
    if (allowed) return;
    throw new ApiError(403, `permission denied: this action needs a grant of create on ${what}`);
  }
  if (!target && grantAllowsTable(ctx, ids, def.name, "create")) return;
  const what = target && targetDef ? `${targetDef.name}/${String(target.$key)}` : def.name;
  throw new ApiError(403, `permission denied: ${def.name} on ${what} requires ${roleNeeded(def, "create")} or a grant of modify`);
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
  authorizeAction(ctx, def, action, caller, target);
  const params = validateParams(def, action, paramsObject(input.params));
  const result = action.handler(ctx, { target, params, caller }) ?? {};
  return { status: result.status ?? 201, body: result.body ?? {} };
}
