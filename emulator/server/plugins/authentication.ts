/**
 * Who is calling, for the routes of the scope that registers it (`/api`, `/_emulator`): a Bearer API key,
 * a session token or Basic credentials. A failed authentication is kept, not answered, so the gate
 * plugins after it still count and limit the request; a route answers 401 through `requireCaller`.
 * Routes marked `config: { public: true }` (the login) are not authenticated.
 */
import type { FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { authenticate, SESSION_HEADER } from "../../services/identity/authenticate";
import type { SessionStore } from "../../services/identity/sessions";
import type { EmulatorContext } from "../../engine/context";
import { ApiError } from "../../model/errors";
import type { Caller } from "../../model/types";
import { headerValue } from "../reply";

declare module "fastify" {
  interface FastifyRequest {
    caller: Caller | null;
    authError: ApiError | null;
  }
  interface FastifyContextConfig {
    /** Served without authentication. */
    public?: boolean;
  }
}

export const AUTHENTICATION = "vplatform-authentication";

/** The authenticated caller of a request, or the reason there is none (401). */
export function requireCaller(request: FastifyRequest): Caller {
  if (request.authError) throw request.authError;
  if (!request.caller) throw new ApiError(401, "login required");
  return request.caller;
}

export const authenticationPlugin = fp<{ ctx: EmulatorContext; sessions: SessionStore }>(
  async (app, { ctx, sessions }) => {
    app.decorateRequest("caller", null);
    app.decorateRequest("authError", null);
    app.addHook("onRequest", async (request) => {
      if (request.routeOptions.config.public) return;
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
    });
  },
  { name: AUTHENTICATION },
);
