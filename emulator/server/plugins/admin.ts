/** The emulator's own hooks, administrators only: `/_emulator/requests` (counter) and `/_emulator/faults`. */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { FaultInjector } from "../../admin/faults";
import type { RequestCounter } from "../../admin/requestCounter";
import { hasRole } from "../../core/engine";
import { ApiError } from "../../core/errors";
import { sendJson } from "../reply";
import { requireCaller } from "./auth";

export async function adminPlugin(app: FastifyInstance, deps: { faults: FaultInjector; counter: RequestCounter }): Promise<void> {
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
