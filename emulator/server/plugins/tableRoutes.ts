/**
 * Table routes: `/api/v4/<table>[/<key>]` — GET (list with fields/filter/sort/limit/offset, one row,
 * `$table`, `?download=1`, one-row tables), POST (a new row), PUT, DELETE — through the generic
 * table engine. Actions are handed to the action routes first.
 */
import type { EmulatorContext } from "../../core/context";
import { authorize, deleteByKey, hasRole, postToTable, requireRow, updateRow } from "../../core/engine";
import { ApiError } from "../../core/errors";
import { listRows, readRow } from "../../core/read";
import { tableSchema } from "../../tables/schema";
import { intOption, sendJson } from "../reply";
import { parseApiPath } from "../routing";
import { requireCaller } from "./auth";
import { shared } from "./shared";

export const tableRoutesPlugin = shared<{ ctx: EmulatorContext }>("vplatform-table-routes", async (app, { ctx }) => {
  app.route({
    method: ["GET", "POST", "PUT", "DELETE", "PATCH"],
    url: "/api/*",
    handler: async (request, reply) => {
      const path = parseApiPath(request.url);
      const query = request.query as Record<string, string>;
      const caller = requireCaller(request);
      if (path.area !== "v4" || !ctx.tables.has(path.table)) throw new ApiError(404, `resource ${path.display} not found`);
      const def = ctx.store(path.table).def;
      if (app.runActionRoute(request, reply, path)) return reply;
      if (path.emptyKey || path.rest.length) throw new ApiError(404, `resource ${path.display} not found`);
      switch (request.method) {
        case "GET": {
          if (path.key === "$table") {
            if (!hasRole(caller, "admin")) throw new ApiError(403, "permission denied: $table requires administrator credentials");
            return sendJson(request, reply, 200, tableSchema(def));
          }
          if (path.key === undefined) {
            authorize(def, "list", caller);
            if (def.singleton) {
              const row = ctx.all(def.name)[0];
              return sendJson(request, reply, 200, row ? readRow(ctx, def, row, query.fields) : {});
            }
            const list = { fields: query.fields, filter: query.filter, sort: query.sort, limit: intOption(query, "limit"), offset: intOption(query, "offset") };
            return sendJson(request, reply, 200, listRows(ctx, def, list));
          }
          authorize(def, "get", caller);
          const row = requireRow(ctx, def.name, path.key, "get");
          if (def.downloadField && query.download === "1") {
            return reply.code(200).type("text/plain; charset=utf-8").send(String(row[def.downloadField] ?? ""));
          }
          return sendJson(request, reply, 200, readRow(ctx, def, row, query.fields));
        }
        case "POST": {
          if (path.key !== undefined) throw new ApiError(405, `POST to a row is not supported: ${path.display}`);
          const result = postToTable(ctx, def, request.body, caller);
          return sendJson(request, reply, result.status, result.body);
        }
        case "PUT": {
          if (path.key === undefined) throw new ApiError(405, "PUT needs a row key");
          const result = updateRow(ctx, def, path.key, request.body, caller);
          return sendJson(request, reply, result.status, result.body);
        }
        case "DELETE": {
          if (path.key === undefined) throw new ApiError(405, "DELETE needs a row key");
          const result = deleteByKey(ctx, def, path.key, caller);
          return sendJson(request, reply, result.status, result.body);
        }
        default:
          throw new ApiError(405, `method ${request.method} not permitted`);
      }
    },
  });
});
