/**
 * Row-level spellings of actions some clients use instead of the action table:
 * `POST /v4/webhook_urls/<key>/send {message}` and `PUT /v4/tasks/<key>?action=execute {params}`.
 * Each becomes the body of a POST to the action table that declares the route
 * (`rowRoutes`) and runs through postToTable, so rights, the 404 for a missing
 * row, params validation and the handler are the action table's own.
 */
import type { EmulatorContext } from "../engine/context";
import { ApiError } from "../model/errors";
import { postToTable, type EngineResult } from "../requests/operations";
import type { Caller, RowRoute, TableDef } from "../model/types";

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

/** `POST /v4/<table>/<key>/<action>`: the action, or undefined when the table offers none by that name (an unknown path). */
export function postPathAction(ctx: EmulatorContext, table: string, key: string, action: string): RowAction | undefined {
  const def = actionTableFor(ctx, table, "post-path");
  const spec = def?.actions;
  const known = spec && (Object.hasOwn(spec.actions, action) || Object.hasOwn(spec.aliases ?? {}, action));
  return def && known ? { def, route: "post-path", key, action } : undefined;
}

/** `PUT /v4/<table>/<key>?action=<action>`: the action, or undefined when the PUT is a plain update. */
export function putQueryAction(ctx: EmulatorContext, table: string, key: string, action: string | undefined): RowAction | undefined {
  if (action === undefined) return undefined;
  const def = actionTableFor(ctx, table, "put-query");
  return def ? { def, route: "put-query", key, action } : undefined;
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
