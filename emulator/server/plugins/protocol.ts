/**
 * The wire protocol of every answer, shared with the whole application: JSON bodies (an empty body is
 * "no body": clients send a JSON content type on GET and DELETE too), errors as `{"err"}` (validation,
 * malformed input) or `{"error"}` (operations) — nothing reaches a client as a crash — and the journal
 * commit before an answer leaves (what it acknowledges is durable), and the `Date` header by the platform's
 * clock (Node would send the wall time; a client learns the platform's time from it).
 */
import fp from "fastify-plugin";
import type { EmulatorContext } from "../../engine/context";
import { ApiError } from "../../model/errors";
import { QueryError } from "../../query";
import { BODY_LIMIT, sendJson } from "../reply";

export const protocolPlugin = fp<{ ctx: EmulatorContext }>(
  async (app, { ctx }) => {
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

    // The root's onSend runs before every scope's: the commit precedes a fault's late answer or drop.
    app.addHook("onSend", async (_request, reply, payload) => {
      reply.header("date", new Date(ctx.now()).toUTCString());
      ctx.beforeAnswer();
      return payload;
    });
  },
  { name: "vplatform-protocol" },
);
