/**
 * Action routes: `POST /api/v4/<x>_actions {<target>, action, params}` and the row-level spellings
 * some clients use (`POST /v4/<table>/<key>/<action>`, `PUT /v4/<table>/<key>?action=<action>`,
 * see rowActions.ts). Each is authenticated, validated and run by the table engine. Registered
 * before the table routes, which hand every /api/v4 request here first (`app.runActionRoute`).
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { EmulatorContext } from "../../core/context";
import { authorize, runAction } from "../../core/engine";
import { sendJson } from "../reply";
import { matchRowAction, runRowAction } from "../rowActions";
import type { ApiPath } from "../routing";
import { requireCaller } from "./auth";
import { shared } from "./shared";

/** Answers the request and says true when it is an action; false when it is a plain table request. */
export type ActionRoute = (request: FastifyRequest, reply: FastifyReply, path: ApiPath) => boolean;

declare module "fastify" {
  interface FastifyInstance {
    runActionRoute: ActionRoute;
  }
}

export const actionRoutesPlugin = shared<{ ctx: EmulatorContext }>("vplatform-action-routes", async (app, { ctx }) => {
  const route: ActionRoute = (request, reply, path) => {
    const query = request.query as Record<string, string>;
    const rowAction = matchRowAction(ctx, request.method, path, query);
    if (rowAction) {
      const result = runRowAction(ctx, rowAction, request.body, requireCaller(request));
      sendJson(request, reply, result.status, result.body);
      return true;
    }
    const def = ctx.store(path.table).def;
    if (!def.actions || request.method !== "POST" || path.key !== undefined || path.emptyKey || path.rest.length) return false;
    const caller = requireCaller(request);
    authorize(def, "create", caller);
    const result = runAction(ctx, def, request.body, caller);
    sendJson(request, reply, result.status, result.body);
    return true;
  };
  app.decorate("runActionRoute", route);
});
