/**
 * What a caller may do: its role first (the table's read and write roles), then its grants (`permissions`,
 * decided in grants.ts). The API's operations (requests/operations.ts) ask here before the engine changes
 * anything; a refusal is 403 (405 for an operation the table does not offer).
 */
import type { EmulatorContext } from "../../engine/context";
import { ApiError, notFound } from "../../model/errors";
import type { ActionDef, Caller, Operation, Role, Row, TableDef } from "../../model/types";
import { grantAllows, grantAllowsTable, identitiesOf, type Right } from "./grants";

const ROLE_RANK: Record<Role, number> = { none: -1, readonly: 0, vmoperator: 1, admin: 2 };

export function hasRole(caller: Caller, needed: Role): boolean {
  return ROLE_RANK[caller.role] >= ROLE_RANK[needed];
}

const RIGHT_OF: Record<Operation, Right> = { list: "list", get: "read", create: "create", update: "modify", delete: "delete" };

export function roleNeeded(def: TableDef, op: Operation): Role {
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
export function authorizeReferences(ctx: EmulatorContext, def: TableDef, values: Record<string, unknown>, caller: Caller): void {
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

/**
 * An action needs the action table's role, or `modify` on its target row (the maker: actions change the row), and
 * what the action itself needs of grants beyond that (`grantNeeds`: an action that adds hardware or a snapshot
 * needs `create` on the target, as a POST of that child would; a clone needs `create` on the vms table).
 */
export function authorizeAction(ctx: EmulatorContext, def: TableDef, action: ActionDef, caller: Caller, target: Row | undefined): void {
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
