/**
 * The table routes of `/api`: `/v4/:table` (GET lists, POST creates a row or runs an action),
 * `/v4/:table/:key` (GET one row, `$table`, `?download=1`; PUT updates or runs a `?action=`; DELETE) and
 * `/v4/:table/:key/:action` (row-level action spellings, see rowActions.ts), all through the table engine.
 * Each route first authenticates the caller (401) and finds the table (404), as the platform answers.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { EmulatorContext } from "../../engine/context";
import { deleteByKey, postToTable, updateRow } from "../../requests/operations";
import { hasRole, listVisibility, requireAuthorizedRow } from "../../services/identity/access";
import { ApiError } from "../../model/errors";
import { listRows, readRow } from "../../engine/read";
import { tableSchema } from "../../engine/schema";
import type { Caller, TableDef } from "../../model/types";
import { intOption, sendJson } from "../reply";
import { postPathAction, putQueryAction, runRowAction } from "../rowActions";
import { schemaOf } from "../routing";
import { requireCaller } from "./authentication";

interface RouteParams {
  table: string;
  key: string;
  action: string;
}

type Query = Record<string, string>;

const tableSchemas = { params: schemaOf(["table"], true), querystring: schemaOf(["limit", "offset"], false) };
const rowSchemas = { params: schemaOf(["table", "key"], true), querystring: schemaOf(["limit", "offset"], false) };
const rowActionSchemas = { params: schemaOf(["table", "key", "action"], true) };

export async function tableRoutesPlugin(app: FastifyInstance, { ctx }: { ctx: EmulatorContext }): Promise<void> {
  const target = (request: FastifyRequest): { caller: Caller; def: TableDef; params: RouteParams; query: Query } => {
    const caller = requireCaller(request);
    const params = request.params as RouteParams;
    if (!ctx.tables.has(params.table) || params.key === "") throw new ApiError(404, `resource ${displayOf(request.url)} not found`);
    const def = ctx.store(params.table).def;
    if (request.method === "GET") def.beforeRead?.(ctx);
    return { caller, def, params, query: request.query as Query };
  };

  app.get("/v4/:table", { schema: tableSchemas }, async (request, reply) => {
    const { caller, def, query } = target(request);
    const visible = listVisibility(ctx, def, caller);
    if (def.singleton) {
      const row = ctx.all(def.name)[0];
      return sendJson(request, reply, 200, row ? readRow(ctx, def, row, query.fields) : {});
    }
    const { fields, filter, sort } = query;
    const list = { fields, filter, sort, limit: intOption(query, "limit"), offset: intOption(query, "offset"), visible };
    return sendJson(request, reply, 200, listRows(ctx, def, list));
  });

  app.post("/v4/:table", { schema: tableSchemas }, async (request, reply) => {
    const { caller, def } = target(request);
    const result = postToTable(ctx, def, request.body, caller);
    return sendJson(request, reply, result.status, result.body);
  });

  app.route({
    method: ["PUT", "DELETE", "PATCH"],
    url: "/v4/:table",
    schema: tableSchemas,
    handler: async (request) => {
      target(request);
      throw new ApiError(405, request.method === "PATCH" ? "method PATCH not permitted" : `${request.method} needs a row key`);
    },
  });

  app.get("/v4/:table/:key", { schema: rowSchemas }, async (request, reply) => {
    const { caller, def, params, query } = target(request);
    if (params.key === "$table") {
      if (!hasRole(caller, "admin")) throw new ApiError(403, "permission denied: $table requires administrator credentials");
      return sendJson(request, reply, 200, tableSchema(def));
    }
    const row = requireAuthorizedRow(ctx, def, "get", caller, params.key);
    if (def.downloadField && query.download === "1") {
      return reply
        .code(200)
        .type("text/plain; charset=utf-8")
        .send(String(row[def.downloadField] ?? ""));
    }
    return sendJson(request, reply, 200, readRow(ctx, def, row, query.fields));
  });

  app.put("/v4/:table/:key", { schema: rowSchemas }, async (request, reply) => {
    const { caller, def, params, query } = target(request);
    const rowAction = putQueryAction(ctx, def.name, params.key, query.action);
    const result = rowAction ? runRowAction(ctx, rowAction, request.body, caller) : updateRow(ctx, def, params.key, request.body, caller);
    return sendJson(request, reply, result.status, result.body);
  });

  app.delete("/v4/:table/:key", { schema: rowSchemas }, async (request, reply) => {
    const { caller, def, params } = target(request);
    const result = deleteByKey(ctx, def, params.key, caller);
    return sendJson(request, reply, result.status, result.body);
  });

  app.route({
    method: ["POST", "PATCH"],
    url: "/v4/:table/:key",
    schema: rowSchemas,
    handler: async (request) => {
      target(request);
      if (request.method === "PATCH") throw new ApiError(405, "method PATCH not permitted");
      throw new ApiError(405, `POST to a row is not supported: ${displayOf(request.url)}`);
    },
  });

  app.post("/v4/:table/:key/:action", { schema: rowActionSchemas }, async (request, reply) => {
    const { caller, def, params } = target(request);
    const rowAction = postPathAction(ctx, def.name, params.key, params.action);
    if (!rowAction) throw new ApiError(404, `resource ${displayOf(request.url)} not found`);
    const result = runRowAction(ctx, rowAction, request.body, caller);
    return sendJson(request, reply, result.status, result.body);
  });
}

/** The path as written after /api, for messages ("/v4/vms/1"). */
export function displayOf(url: string): string {
  return decodeURIComponent(url.split("?")[0].replace(/^\/api/, ""));
}
