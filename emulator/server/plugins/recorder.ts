/** Hands every request of its scope and its answer to the request recorder while it records. */
import fp from "fastify-plugin";
import { authKind, type RequestRecorder } from "../../admin/recorder";

declare module "fastify" {
  interface FastifyRequest {
    /** The answer's body as sent, for the recorder. */
    recordedAnswer: string | null;
  }
}

function parsed(text: string | null): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export const recorderPlugin = fp<{ recorder: RequestRecorder }>(
  async (app, { recorder }) => {
    app.decorateRequest("recordedAnswer", null);
    app.addHook("onSend", async (request, _reply, payload) => {
      if (recorder.recording && typeof payload === "string") request.recordedAnswer = payload;
      return payload;
    });
    app.addHook("onResponse", async (request, reply) => {
      if (!recorder.recording) return;
      recorder.record({
        at: new Date(Date.now() - reply.elapsedTime).toISOString(),
        method: request.method,
        url: request.url,
        auth: authKind(request.headers),
        body: request.body,
        status: reply.statusCode,
        answer: parsed(request.recordedAnswer),
        ms: Math.round(reply.elapsedTime),
      });
    });
  },
  { name: "vplatform-recorder" },
);
