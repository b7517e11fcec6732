/**
 * The web console (`/ui`), administrators only: the page (`GET /ui`, one HTML document with its script and
 * style, no build step) and what it shows (`GET /ui/state`, polled by the page). A browser logs in with the
 * admin's Basic credentials (the answer to no credentials asks for them); the page arms and clears faults
 * and chaos rules through the admin API (`/_emulator/faults`, `/_emulator/chaos`), with the same credentials. The plugin also keeps the live request
 * log: every `/api` answer, logged when it leaves.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ChaosControls } from "../admin/chaos";
import type { FaultInjector } from "../admin/faults";
import type { RequestCounter } from "../admin/requestCounter";
import { authenticate, SESSION_HEADER } from "../services/identity/authenticate";
import type { RateLimiter } from "../services/identity/rateLimit";
import type { SessionStore } from "../services/identity/sessions";
import type { EmulatorContext } from "../engine/context";
import { hasRole } from "../services/identity/access";
import { ApiError } from "../model/errors";
import { consoleState } from "./consoleState";
import { CONSOLE_PAGE } from "./page";
import { RequestLog } from "./requestLog";

export interface ConsoleDeps {
  ctx: EmulatorContext;
  sessions: SessionStore;
  counter: RequestCounter;
  rateLimiter: RateLimiter;
  faults: FaultInjector;
  chaos: ChaosControls;
}

const REALM = 'Basic realm="vplatform emulator console", charset="UTF-8"';

/** The admin behind the request, else an answer asking for credentials (401) or refusing a non-admin (403). */
function admitAdmin(deps: ConsoleDeps, request: FastifyRequest, reply: FastifyReply): boolean {
  const header = request.headers[SESSION_HEADER];
  try {
    const caller = authenticate(deps.ctx, deps.sessions, {
      authorization: request.headers.authorization,
      sessionToken: Array.isArray(header) ? header[0] : header,
      ip: request.ip,
    });
    if (hasRole(caller, "admin")) return true;
    void reply.code(403).type("text/plain; charset=utf-8").send("the console needs administrator credentials");
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    void reply.code(401).header("www-authenticate", REALM).type("text/plain; charset=utf-8").send(`${error.message}: log in as the admin`);
  }
  return false;
}

function callerName(request: FastifyRequest): string {
  return request.caller?.apiKey ?? request.caller?.user ?? "anonymous";
}

export async function consolePlugin(app: FastifyInstance, deps: ConsoleDeps): Promise<void> {
  const log = new RequestLog();
  // The server registers this plugin shared with the application, so the hook sees every /api answer.
  app.addHook("onResponse", async (request, reply) => {
    if (!request.url.startsWith("/api/")) return;
    log.add({
      at: Date.now(),
      method: request.method,
      path: request.url.split("?")[0],
      status: reply.statusCode,
      caller: callerName(request),
      ms: Math.round(reply.elapsedTime),
    });
  });
  app.get("/ui", async (request, reply) => {
    if (!admitAdmin(deps, request, reply)) return reply;
    return reply.type("text/html; charset=utf-8").header("cache-control", "no-store").send(CONSOLE_PAGE);
  });
  app.get("/ui/state", async (request, reply) => {
    if (!admitAdmin(deps, request, reply)) return reply;
    return reply.header("cache-control", "no-store").send(consoleState(deps.ctx, { ...deps, log }));
  });
}
