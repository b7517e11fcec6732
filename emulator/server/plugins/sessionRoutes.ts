/**
 * Sessions: `POST /api/sys/tokens {login, password}` → 201 with the token in `$key` (the one public
 * route: the login is what authenticates), `DELETE /api/sys/tokens/:token` logs out; other methods 405.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { checkPassword } from "../../services/identity/authenticate";
import type { SessionStore } from "../../services/identity/sessions";
import type { EmulatorContext } from "../../engine/context";
import { creationBody } from "../../engine/write";
import { ApiError, notFound } from "../../model/errors";
import { sendJson } from "../reply";
import { schemaOf } from "../routing";

const notPermitted = async (request: FastifyRequest) => {
  throw new ApiError(405, `method ${request.method} not permitted on /sys/tokens`);
};

export async function sessionRoutesPlugin(
  app: FastifyInstance,
  { ctx, sessions }: { ctx: EmulatorContext; sessions: SessionStore },
): Promise<void> {
  const tokenSchemas = { params: schemaOf(["token"], true) };

  app.post("/sys/tokens", { config: { public: true } }, async (request, reply) => {
    const body = request.body as Record<string, unknown> | undefined;
    if (!body || typeof body !== "object" || typeof body.login !== "string" || typeof body.password !== "string") {
      throw new ApiError(400, "Validation error on field: 'login' - 'login and password (strings) are required'", "err");
    }
    const user = checkPassword(ctx, body.login, body.password);
    const session = sessions.create(String(user.name));
    const created = creationBody("tokens", { $key: session.token }, session.row);
    return sendJson(request, reply, 201, { ...created, location: `/sys/tokens/${session.token}` });
  });
  app.route({ method: ["GET", "PUT", "DELETE", "PATCH"], url: "/sys/tokens", handler: notPermitted });

  app.delete("/sys/tokens/:token", { schema: tokenSchemas }, async (request, reply) => {
    const { token } = request.params as { token: string };
    if (!sessions.delete(token)) throw notFound(`/sys/tokens/${token}`, "delete");
    return sendJson(request, reply, 200, undefined);
  });
  app.route({ method: ["GET", "POST", "PUT", "PATCH"], url: "/sys/tokens/:token", schema: tokenSchemas, handler: notPermitted });
}
