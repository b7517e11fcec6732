/**
 * Authentication and the per-request gate of every /api and /_emulator request, in order:
 * authenticate (Bearer key, session token, Basic) → count → (body parsed) injected fault → rate limit (API keys).
 * Also the session endpoints: `POST /api/sys/tokens {login, password}` → token in `$key`,
 * `DELETE /api/sys/tokens/<token>` logs out. Routes take the caller from `requireCaller`.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Fault, FaultInjector } from "../../admin/faults";
import type { RequestCounter } from "../../admin/requestCounter";
import { authenticate, checkPassword, SESSION_HEADER } from "../../auth/authenticate";
import type { RateLimiter } from "../../auth/rateLimit";
import type { SessionStore } from "../../auth/sessions";
import type { EmulatorContext } from "../../core/context";
import { creationBody } from "../../core/engine";
import { ApiError, notFound } from "../../core/errors";
import type { Caller } from "../../tables/types";
import { headerValue, sendJson } from "../reply";
import { parseApiPath } from "../routing";
import { shared } from "./shared";

declare module "fastify" {
  interface FastifyRequest {
    caller?: Caller;
    authError?: ApiError;
    /** The table and row key of an /api request, for the fault and rate-limit gate. */
    apiTarget?: { table: string; key?: string };
  }
}

export interface AuthOptions {
  ctx: EmulatorContext;
  sessions: SessionStore;
  rateLimiter: RateLimiter;
  faults: FaultInjector;
  counter: RequestCounter;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The authenticated caller of a request, or the reason there is none (401). */
export function requireCaller(request: FastifyRequest): Caller {
  if (request.authError) throw request.authError;
  if (!request.caller) throw new ApiError(401, "login required");
  return request.caller;
}

export const authPlugin = shared<AuthOptions>("vplatform-auth", async (app, deps) => {
  const { ctx, sessions } = deps;
  app.addHook("onRequest", async (request, reply) => {
    const isApi = request.url.startsWith("/api/");
    if (!isApi && !request.url.startsWith("/_emulator")) return;
    const isLogin = request.method === "POST" && /^\/api\/sys\/tokens\/?(\?|$)/.test(request.url);
    if (!isLogin) {
      try {
        request.caller = authenticate(ctx, sessions, {
          authorization: request.headers.authorization,
          sessionToken: headerValue(request.headers[SESSION_HEADER]),
          ip: request.ip,
        });
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        request.authError = e;
      }
    }
    if (!isApi) return;
    let table = "";
    let key: string | undefined;
    try {
      ({ table, key } = parseApiPath(request.url));
    } catch {
      table = "";
    }
    deps.counter.record(request.caller?.apiKey ?? request.caller?.user ?? "anonymous", request.method, table);
    request.apiTarget = { table, key };
    const fault = deps.faults.match(request.method, table);
    if (fault) {
      const done = await applyFault(fault, request, reply);
      if (done) return done;
    }
    if (request.caller?.apiKey !== undefined) {
      const wait = deps.rateLimiter.take(`${request.caller.user}/${request.caller.apiKey}`);
      if (wait > 0) {
        reply.header("retry-after", String(wait));
        return sendJson(request, reply, 429, { error: `rate limit exceeded: ${deps.rateLimiter.perHour} requests per hour per API key` });
      }
    }
  });

  // Faults narrowed by `where` look at the body: they act once it is parsed.
  app.addHook("preHandler", async (request, reply) => {
    if (!request.apiTarget) return;
    const { table, key } = request.apiTarget;
    const fault = deps.faults.match(request.method, table, { key, body: request.body });
    if (fault) return applyFault(fault, request, reply);
  });

  app.route({
    method: ["GET", "POST", "PUT", "DELETE", "PATCH"],
    url: "/api/sys/*",
    handler: async (request, reply) => {
      const { table, key } = parseApiPath(request.url);
      if (table !== "tokens") throw new ApiError(404, `resource /sys/${table} not found`);
      if (request.method === "POST" && key === undefined) {
        const body = request.body as Record<string, unknown> | undefined;
        if (!body || typeof body !== "object" || typeof body.login !== "string" || typeof body.password !== "string") {
          throw new ApiError(400, "Validation error on field: 'login' - 'login and password (strings) are required'", "err");
        }
        const user = checkPassword(ctx, body.login, body.password);
        const session = sessions.create(String(user.name));
        const created = creationBody("tokens", { $key: session.token }, session.row);
        return sendJson(request, reply, 201, { ...created, location: `/sys/tokens/${session.token}` });
      }
      if (request.method === "DELETE" && key !== undefined) {
        if (!sessions.delete(key)) throw notFound(`/sys/tokens/${key}`, "delete");
        return sendJson(request, reply, 200, undefined);
      }
      throw new ApiError(405, `method ${request.method} not permitted on /sys/tokens`);
    },
  });
});

/** Stall, drop, answer the fault's status, or mark the request to be answered late or dropped after processing. */
async function applyFault(fault: Fault, request: FastifyRequest, reply: FastifyReply) {
  if (fault.stallMs) await sleep(fault.stallMs);
  if (fault.drop) {
    request.raw.socket.destroy();
    return reply.hijack();
  }
  if (fault.status) {
    if (fault.retryAfter !== undefined) reply.header("retry-after", String(fault.retryAfter));
    return sendJson(request, reply, fault.status, { error: `injected fault (status ${fault.status})` });
  }
  if (fault.dropAfter) request.dropAfterProcessing = true;
  if (fault.lateMs) request.answerLateMs = fault.lateMs;
  return undefined;
}
