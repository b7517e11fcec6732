/**
 * The HTTPS server, composed of Fastify plugins: the wire protocol (JSON bodies, error answers,
 * the journal commit before each answer), authentication (and the per-request gate: count, faults,
 * rate limit; session endpoints), action routes, table routes, and the admin hooks; plus
 * `/version.json` (no authentication). Plain HTTP is never served.
 */
import Fastify, { type FastifyInstance } from "fastify";
import type { FaultInjector } from "../admin/faults";
import type { RequestCounter } from "../admin/requestCounter";
import type { RateLimiter } from "../auth/rateLimit";
import type { SessionStore } from "../auth/sessions";
import type { EmulatorContext } from "../core/context";
import { consolePlugin } from "../console/plugin";
import { VERSION_ANSWER } from "../tables/version";
import { actionRoutesPlugin } from "./plugins/actionRoutes";
import { adminPlugin } from "./plugins/admin";
import { authPlugin } from "./plugins/auth";
import { protocolPlugin } from "./plugins/protocol";
import { shared } from "./plugins/shared";
import { tableRoutesPlugin } from "./plugins/tableRoutes";
import { BODY_LIMIT, sendJson } from "./reply";

export { BODY_LIMIT } from "./reply";

export interface AppDeps {
  ctx: EmulatorContext;
  sessions: SessionStore;
  rateLimiter: RateLimiter;
  faults: FaultInjector;
  counter: RequestCounter;
  https: { cert: string; key: string };
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    https: deps.https,
    bodyLimit: BODY_LIMIT,
    logger: false,
    // Spaces arrive as "+" or "%20"; URLSearchParams decodes both and never throws.
    routerOptions: { querystringParser: (text: string) => Object.fromEntries(new URLSearchParams(text)) },
  });
  await app.register(protocolPlugin, { ctx: deps.ctx });
  await app.register(authPlugin, deps);
  await app.register(actionRoutesPlugin, { ctx: deps.ctx });
  await app.register(tableRoutesPlugin, { ctx: deps.ctx });
  await app.register(adminPlugin, deps);
  await app.register(shared("vplatform-console", consolePlugin), deps);
  app.get("/version.json", async (request, reply) => sendJson(request, reply, 200, VERSION_ANSWER));
  return app;
}
