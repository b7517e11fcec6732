/** The per-API-key request budget: past it, 429 with Retry-After. Session and Basic callers are not limited (the spec limits keys). */
import fp from "fastify-plugin";
import type { RateLimiter } from "../../services/identity/rateLimit";
import { sendJson } from "../reply";
import { AUTHENTICATION } from "./authentication";

export const rateLimitPlugin = fp<{ rateLimiter: RateLimiter }>(
  async (app, { rateLimiter }) => {
    app.addHook("onRequest", async (request, reply) => {
      if (request.caller?.apiKey === undefined) return;
      const wait = rateLimiter.take(`${request.caller.user}/${request.caller.apiKey}`);
      if (wait === 0) return;
      reply.header("retry-after", String(wait));
      return sendJson(request, reply, 429, { error: `rate limit exceeded: ${rateLimiter.perHour} requests per hour per API key` });
    });
  },
  { name: "vplatform-rate-limit", dependencies: [AUTHENTICATION] },
);
