/**
 * The API's operations on a table for one caller, without HTTP — POST (create or action), PUT and DELETE:
 * the caller's access first (services/identity/access.ts), then the table engine (engine/write.ts). The
 * server's routes and the services' unit tests (testSupport.ts) run requests through these.
 */
import type { EmulatorContext } from "../engine/context";
import { readRow } from "../engine/read";
import { checkUnique, createRow, creationBody, deleteRow, refExists } from "../engine/write";
import { coerceField, validateBody } from "../engine/validate";
import { ApiError, notFound, validationError } from "../model/errors";
import type { ActionDef, Caller, Row, TableDef } from "../model/types";
import {
  authorize,
  authorizeAction,
  authorizeNewRow,
  authorizeReferences,
  hasRole,
  requireAuthorizedRow,
  roleNeeded,
} from "../services/identity/access";
import { hasGrants, identitiesOf } from "../services/identity/grants";

export interface EngineResult {
  status: number;
  body?: unknown;
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
