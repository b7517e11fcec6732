/**
 * Row-level spellings of actions some clients use instead of the action table:
 * `POST /v4/webhook_urls/<key>/send {message}` and `PUT /v4/tasks/<key>?action=execute {params}`.
 * Each becomes the body of a POST to the action table that declares the route
 * (`rowRoutes`) and runs through postToTable, so rights, the 404 for a missing
 * row, params validation and the handler are the action table's own.
 */
import type { EmulatorContext } from "../core/context";
import { ApiError } from "../core/errors";
import { postToTable, type EngineResult } from "../core/engine";
import type { Caller, RowRoute, TableDef } from "../tables/types";
import type { ApiPath } from "./routing";

export interface RowAction {
  /** The action table. */
  def: TableDef;
  route: RowRoute;
  key: string;
  action: string;
}

function actionTableFor(ctx: EmulatorContext, table: string, route: RowRoute): TableDef | undefined {
  for (const { def } of ctx.tables.values()) {
    if (def.actions?.targetTable === table && def.actions.rowRoutes?.includes(route)) return def;
  }
  return undefined;
}

/** The row action a request spells, or undefined when it is an ordinary table request. */
export function matchRowAction(ctx: EmulatorContext, method: string, path: ApiPath, query: Record<string, string>): RowAction | undefined {
  if (path.key === undefined) return undefined;
  if (method === "POST" && path.rest.length === 1) {
    const def = actionTableFor(ctx, path.table, "post-path");
    const [action] = path.rest;
    const spec = def?.actions;
    // An action the table does not offer is an unknown path (404), not a bad parameter.
    const known = spec && (Object.hasOwn(spec.actions, action) || Object.hasOwn(spec.aliases ?? {}, action));
    return def && known ? { def, route: "post-path", key: path.key, action } : undefined;
  }
  if (method === "PUT" && path.rest.length === 0 && query.action !== undefined) {
    const def = actionTableFor(ctx, path.table, "put-query");
    return def ? { def, route: "put-query", key: path.key, action: query.action } : undefined;
  }
  return undefined;
}

/** Runs a row action as the POST to its action table; a PUT answers 200 (the spec's PUT success), a POST 201. */
export function runRowAction(ctx: EmulatorContext, rowAction: RowAction, body: unknown, caller: Caller): EngineResult {
  if (body !== undefined && (body === null || typeof body !== "object" || Array.isArray(body))) {
    throw new ApiError(400, "request body must be a JSON object", "err");
  }
  const fields = (body ?? {}) as Record<string, unknown>;
  const { def, route, key, action } = rowAction;
  const input = route === "post-path" ? { params: fields } : fields;
  const result = postToTable(ctx, def, { ...input, [def.actions!.targetField!]: key, action }, caller);
  return route === "put-query" ? { ...result, status: 200 } : result;
}
