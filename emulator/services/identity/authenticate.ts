/**
 * Request authentication. Credentials, in order of precedence:
 *   Authorization: Bearer <api key>
 *   x-service-token: <session token>            (header name configurable)
 *   Authorization: Basic <user:password>        (also from URL credentials, which clients turn into this header)
 * Missing or invalid credentials → 401; IP-list refusals → 401 as well (authentication fails).
 */
import type { EmulatorContext } from "../../engine/context";
import { ApiError } from "../../model/errors";
import type { Caller, Role, Row } from "../../model/types";
import { findApiKey } from "./apiKeys";
import { ipAllowed, parseIpList } from "./ipLists";
import type { SessionStore } from "./sessions";
import { passwordMatches, userByName } from "./users";
import { IDENTITY } from "../../model/names/identity";

export const SESSION_HEADER = "x-service-token";

export interface Credentials {
  authorization?: string;
  sessionToken?: string;
  ip: string;
}

function callerFor(user: Row | undefined, ip: string, apiKey?: string): Caller {
  if (!user || user.enabled === false) throw new ApiError(401, "user account disabled or missing");
  return { user: String(user.name), role: user.role as Role, ip, ...(apiKey ? { apiKey } : {}) };
}

export function checkPassword(ctx: EmulatorContext, login: string, password: string): Row {
  const user = userByName(ctx, login);
  if (!user || user.enabled === false || !passwordMatches(user.password, password)) {
    throw new ApiError(401, "invalid login or password");
  }
  return user;
}

export function authenticate(ctx: EmulatorContext, sessions: SessionStore, creds: Credentials): Caller {
  const auth = creds.authorization?.trim() ?? "";
  const [scheme, ...rest] = auth.split(/\s+/);
  const value = rest.join(" ");
  if (scheme.toLowerCase() === "bearer" && value) {
    const key = findApiKey(ctx, value);
    if (!ipAllowed(parseIpList(key.ip_allow_list), parseIpList(key.ip_deny_list), creds.ip)) {
      throw new ApiError(401, "API key not allowed from this address");
    }
    // Recorded without an event: a login is not a table change clients watch for.
    key.lastlogin_stamp = ctx.nowSeconds();
    key.lastlogin_ip = creds.ip;
    ctx.onChange();
    return callerFor(ctx.get(IDENTITY.users, key.user), creds.ip, String(key.name));
  }
  if (creds.sessionToken) {
    const login = sessions.use(creds.sessionToken);
    if (!login) throw new ApiError(401, "session token invalid or expired");
    return callerFor(userByName(ctx, login), creds.ip);
  }
  if (scheme.toLowerCase() === "basic" && value) {
    const decoded = Buffer.from(value, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon < 0) throw new ApiError(401, "malformed basic credentials");
    return callerFor(checkPassword(ctx, decoded.slice(0, colon), decoded.slice(colon + 1)), creds.ip);
  }
  throw new ApiError(401, "login required");
}
