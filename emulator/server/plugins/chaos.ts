/** The chaos controls on the requests of its scope: the firing rules' latency, then their injected answer or the real one. */
import { setTimeout as sleep } from "node:timers/promises";
import fp from "fastify-plugin";
import type { ChaosControls } from "../../admin/chaos";
import { sendJson } from "../reply";
import { API_TARGET } from "./apiTarget";

export const chaosPlugin = fp<{ chaos: ChaosControls }>(
  async (app, { chaos }) => {
    app.addHook("onRequest", async (request, reply) => {
      const { latencyMs, answer } = chaos.decide(request.method, request.apiTarget.table);
      if (latencyMs) await sleep(latencyMs);
      if (answer) return sendJson(request, reply, answer.status, answer.body);
    });
  },
  { name: "vplatform-chaos", dependencies: [API_TARGET] },
);
