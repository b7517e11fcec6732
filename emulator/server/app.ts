/**
 * The HTTPS server: Fastify with one catch-all route under /api (dispatched by
 * parseApiPath), `/version.json` and the `/_emulator` admin hooks. Per /api
 * request, in order: authenticate → count → injected fault → rate limit →
 * handler. Errors become `{"err"}` (validation, malformed input) or
 * `{"error"}` (operations) bodies; nothing reaches the client as a crash.
 */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { authenticate, checkPassword, SESSION_HEADER } from "../auth/authenticate";
import type { RateLimiter } from "../auth/rateLimit";
import type { SessionStore } from "../auth/sessions";
import type { FaultInjector } from "../admin/faults";
import type { RequestCounter } from "../admin/requestCounter";
import type { EmulatorContext } from "../core/context";
import { deleteByKey, hasRole, postToTable, requireRow, authorize, updateRow, creationBody } from "../core/engine";
import { ApiError, notFound } from "../core/errors";
import { listRows, readRow, type ListQuery } from "../core/read";
import { QueryError } from "../query";
import { tableSchema } from "../tables/schema";
import type { Caller } from "../tables/types";
import { matchRowAction, runRowAction } from "./rowActions";
import { parseApiPath } from "./routing";

/** Request body limit (the spec leaves it open): 4 MiB, answered 413 beyond. */
export const BODY_LIMIT = 4 * 1024 * 1024;
import { API_VERSION_TEXT as API_VERSION } from "../tables/version";

export interface AppDeps {
  ctx: EmulatorContext;
  sessions: SessionStore;
  rateLimiter: RateLimiter;
  faults: FaultInjector;
  counter: RequestCounter;
  https: { cert: string; key: string };
}

declare module "fastify" {
  interface FastifyRequest {
    caller?: Caller;
    authError?: ApiError;
    /** A `dropAfter` fault: answer nothing once the request was processed. */
    dropAfterProcessing?: boolean;
    /** A `lateMs` fault: answer only this long after the request was processed. */
    answerLateMs?: number;
  }
}

function sendJson(request: FastifyRequest, reply: FastifyReply, status: number, body: unknown): FastifyReply {
  const pretty = request.headers["x-json-non-compact"] !== undefined && request.headers["x-json-non-compact"] !== "0";
  reply.code(status);
  if (body === undefined) return reply.send();
  return reply.type("application/json; charset=utf-8").send(JSON.stringify(body, null, pretty ? 2 : undefined));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function intOption(query: Record<string, string>, name: string): number | undefined {
  const value = query[name];
  if (value === undefined || value === "") return undefined;
  if (!/^\d+$/.test(value)) throw new ApiError(400, `Validation error on field: '${name}' - 'must be a non-negative integer'`, "err");
  return Number(value);
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { ctx, sessions } = deps;
  const app = Fastify({
    https: deps.https,
    bodyLimit: BODY_LIMIT,
    logger: false,
    // Spaces arrive as "+" or "%20"; URLSearchParams decodes both and never throws.
    routerOptions: { querystringParser: (text: string) => Object.fromEntries(new URLSearchParams(text)) },
  });

  // JSON bodies; an empty body is "no body" (clients send Content-Type: application/json on GET and DELETE too).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "string" }, (_req, text, done) => {
    const body = String(text);
    if (body.trim() === "") return done(null, undefined);
    try {
      done(null, JSON.parse(body));
    } catch (e) {
      done(new ApiError(400, `malformed JSON body: ${(e as Error).message}`, "err"), undefined);
    }
  });

  app.setErrorHandler((error: unknown, request, reply) => {
    if (error instanceof ApiError) {
      for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
      return sendJson(request, reply, error.status, error.body());
    }
    if (error instanceof QueryError) return sendJson(request, reply, 400, { err: error.message });
    const e = error as { statusCode?: number; message?: string; code?: string };
    if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
      const message = e.code === "FST_ERR_CTP_BODY_TOO_LARGE" ? `request body larger than ${BODY_LIMIT} bytes` : e.message;
      return sendJson(request, reply, e.statusCode, { err: message });
    }
    return sendJson(request, reply, 500, { error: `internal error: ${e.message ?? String(error)}` });
  });
  app.setNotFoundHandler((request, reply) => sendJson(request, reply, 404, { error: `resource ${request.url.split("?")[0]} not found` }));

  app.get("/version.json", async (request, reply) => sendJson(request, reply, 200, { version: API_VERSION }));

  app.addHook("onSend", async (request, _reply, payload) => {
    if (request.dropAfterProcessing) request.raw.socket.destroy();
    if (request.answerLateMs) await sleep(request.answerLateMs);
    return payload;
  });

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
    try {
      table = parseApiPath(request.url).table;
    } catch {
      table = "";
    }
    deps.counter.record(request.caller?.apiKey ?? request.caller?.user ?? "anonymous", request.method, table);
    const fault = deps.faults.match(request.method, table);
    if (fault) {
      if (fault.stallMs) await sleep(fault.stallMs);
      if (fault.drop) {
        request.raw.socket.destroy();
        return reply.hijack();
      }
      if (fault.status) return sendJson(request, reply, fault.status, { error: `injected fault (status ${fault.status})` });
      if (fault.dropAfter) request.dropAfterProcessing = true;
      if (fault.lateMs) request.answerLateMs = fault.lateMs;
    }
    if (request.caller?.apiKey !== undefined) {
      const wait = deps.rateLimiter.take(`${request.caller.user}/${request.caller.apiKey}`);
      if (wait > 0) {
        reply.header("retry-after", String(wait));
        return sendJson(request, reply, 429, { error: `rate limit exceeded: ${deps.rateLimiter.perHour} requests per hour per API key` });
      }
    }
  });

  const requireCaller = (request: FastifyRequest): Caller => {
    if (request.authError) throw request.authError;
    if (!request.caller) throw new ApiError(401, "login required");
    return request.caller;
  };

  app.route({
    method: ["GET", "POST", "PUT", "DELETE", "PATCH"],
    url: "/api/*",
    handler: async (request, reply) => {
      const path = parseApiPath(request.url);
      const query = request.query as Record<string, string>;
      if (path.area === "sys") return tokens(request, reply, path.table, path.key);
      const caller = requireCaller(request);
      if (!ctx.tables.has(path.table)) throw new ApiError(404, `resource /v4/${path.table} not found`);
      const def = ctx.store(path.table).def;
      const rowAction = matchRowAction(ctx, request.method, path, query);
      if (rowAction) {
        const result = runRowAction(ctx, rowAction, request.body, caller);
        return sendJson(request, reply, result.status, result.body);
      }
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
            const listQuery: ListQuery = { fields: query.fields, filter: query.filter, sort: query.sort, limit: intOption(query, "limit"), offset: intOption(query, "offset") };
            return sendJson(request, reply, 200, listRows(ctx, def, listQuery));
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

  /** POST /api/sys/tokens {login, password} → token in $key; DELETE /api/sys/tokens/<token> logs out. */
  function tokens(request: FastifyRequest, reply: FastifyReply, table: string, key: string | undefined) {
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
  }

  registerAdminHooks(app, deps, requireCaller);
  return app;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** `/_emulator/requests` and `/_emulator/faults`: administrators only. */
function registerAdminHooks(app: FastifyInstance, deps: AppDeps, requireCaller: (r: FastifyRequest) => Caller): void {
  const admin = (request: FastifyRequest) => {
    if (!hasRole(requireCaller(request), "admin")) throw new ApiError(403, "the emulator hooks need administrator credentials");
  };
  app.get("/_emulator/requests", async (request, reply) => {
    admin(request);
    return sendJson(request, reply, 200, deps.counter.snapshot());
  });
  app.delete("/_emulator/requests", async (request, reply) => {
    admin(request);
    deps.counter.reset();
    return sendJson(request, reply, 200, { total: 0 });
  });
  app.post("/_emulator/faults", async (request, reply) => {
    admin(request);
    return sendJson(request, reply, 201, { id: deps.faults.add(request.body).id });
  });
  app.get("/_emulator/faults", async (request, reply) => {
    admin(request);
    return sendJson(request, reply, 200, deps.faults.list());
  });
  app.delete("/_emulator/faults", async (request, reply) => {
    admin(request);
    deps.faults.clear();
    return sendJson(request, reply, 200, {});
  });
}
