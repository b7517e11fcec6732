/** Counts every request of its scope by caller, method and table (`GET /_emulator/requests`), refused ones too. */
import fp from "fastify-plugin";
import type { RequestCounter } from "../../admin/requestCounter";
import { API_TARGET } from "./apiTarget";
import { AUTHENTICATION } from "./authentication";

export const requestCountingPlugin = fp<{ counter: RequestCounter }>(
  async (app, { counter }) => {
    app.addHook("onRequest", async (request) => {
      counter.record(request.caller?.apiKey ?? request.caller?.user ?? "anonymous", request.method, request.apiTarget.table);
    });
  },
  { name: "vplatform-request-counting", dependencies: [AUTHENTICATION, API_TARGET] },
);
