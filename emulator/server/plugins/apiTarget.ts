/**
 * The table and row key an `/api` request names, read once from its path for the plugins that act per
 * table (counting, faults, chaos, the recorder) — also for paths no route serves, which are counted too.
 */
import fp from "fastify-plugin";
import { targetOf, type ApiTarget } from "../routing";

declare module "fastify" {
  interface FastifyRequest {
    apiTarget: ApiTarget;
  }
}

export const API_TARGET = "vplatform-api-target";

export const apiTargetPlugin = fp(
  async (app) => {
    app.decorateRequest("apiTarget", null as unknown as ApiTarget);
    app.addHook("onRequest", async (request) => {
      request.apiTarget = targetOf(request.url);
    });
  },
  { name: API_TARGET },
);
