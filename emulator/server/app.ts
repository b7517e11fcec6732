/**
 * The HTTPS server, composed of Fastify plugins: the wire protocol shared by the whole application;
 * the `/api` scope — authentication, request counting, the recorder, fault injection, chaos and the
 * rate limit as its own plugins, each a hook of this scope only — with the session and table routes;
 * the `/_emulator` admin scope; and `/version.json` (no authentication). Plain HTTP is never served.
 */
import Fastify, { type FastifyInstance } from "fastify";
import type { RateLimiter } from "../services/identity/rateLimit";
import fp from "fastify-plugin";
import { consolePlugin } from "../console/plugin";
import { ApiError } from "../model/errors";
import { VERSION_ANSWER } from "../services/system/version";
import { adminPlugin, type AdminControls } from "./plugins/admin";
import { apiTargetPlugin } from "./plugins/apiTarget";
import { authenticationPlugin, requireCaller } from "./plugins/authentication";
import { chaosPlugin } from "./plugins/chaos";
import { faultInjectionPlugin } from "./plugins/faultInjection";
import { protocolPlugin } from "./plugins/protocol";
import { rateLimitPlugin } from "./plugins/rateLimit";
import { recorderPlugin } from "./plugins/recorder";
import { requestCountingPlugin } from "./plugins/requestCounting";
import { sessionRoutesPlugin } from "./plugins/sessionRoutes";
import { tableRoutesPlugin } from "./plugins/tableRoutes";
import { BODY_LIMIT, sendJson } from "./reply";
import { parseApiPath, schemaError } from "./routing";

export { BODY_LIMIT } from "./reply";

export interface AppDeps extends AdminControls {
  rateLimiter: RateLimiter;
  https: { cert: string; key: string };
}

/** The `/api` scope; its hooks run in registration order: authenticate → count → record → fault → chaos → rate limit. */
async function apiScope(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.setSchemaErrorFormatter((errors) => schemaError(errors));
  await app.register(authenticationPlugin, deps);
  await app.register(apiTargetPlugin);
  await app.register(requestCountingPlugin, deps);
  await app.register(recorderPlugin, deps);
  await app.register(faultInjectionPlugin, deps);
  await app.register(chaosPlugin, deps);
  await app.register(rateLimitPlugin, deps);
  // Paths no route serves: path tricks 400, else (after authentication) 404 naming the path.
  app.setNotFoundHandler(async (request) => {
    const path = parseApiPath(request.url);
    if (path.area === "v4") requireCaller(request);
    throw new ApiError(404, `resource ${path.display} not found`);
  });
  await app.register(sessionRoutesPlugin, deps);
  await app.register(tableRoutesPlugin, deps);
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    https: deps.https,
    bodyLimit: BODY_LIMIT,
    logger: false,
    exposeHeadRoutes: false,
    // A path whose percent-encoding does not decode never reaches a route: the same 400 as other path tricks.
    frameworkErrors: (error, request, reply) => {
      if (error.code !== "FST_ERR_BAD_URL") return sendJson(request, reply, 400, { err: error.message });
      return sendJson(request, reply, 400, new ApiError(400, `malformed percent-encoding in path ${request.url.split("?")[0]}`).body());
    },
    // Spaces arrive as "+" or "%20"; URLSearchParams decodes both and never throws.
    routerOptions: { querystringParser: (text: string) => Object.fromEntries(new URLSearchParams(text)) },
  });
  await app.register(protocolPlugin, deps);
  // The console is shared with the application (not a scope of its own), so its hook logs every /api answer.
  await app.register(fp(consolePlugin, { name: "vplatform-console" }), deps);
  // A scope's options carry its prefix: the scope passes `deps`, never its options, to its own plugins.
  await app.register(async (api) => apiScope(api, deps), { prefix: "/api" });
  await app.register(async (admin) => adminPlugin(admin, deps), { prefix: "/_emulator" });
  app.get("/version.json", async (request, reply) => sendJson(request, reply, 200, VERSION_ANSWER));
  return app;
}
