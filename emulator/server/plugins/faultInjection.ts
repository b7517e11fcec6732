/**
 * The fault switch (`/_emulator/faults`) on the requests of its scope: a fault without `where` acts as the
 * request arrives, one with `where` once the body is parsed. It stalls, drops the connection, answers its
 * status, or marks the request to be dropped or answered late after it was processed (its own onSend,
 * which runs after the protocol's journal commit: the change is durable before the answer is lost).
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { setTimeout as sleep } from "node:timers/promises";
import fp from "fastify-plugin";
import type { Fault, FaultInjector } from "../../admin/faults";
import { sendJson } from "../reply";
import { API_TARGET } from "./apiTarget";

declare module "fastify" {
  interface FastifyRequest {
    /** A `dropAfter` fault: answer nothing once the request was processed. */
    dropAfterProcessing: boolean;
    /** A `lateMs` fault: answer only this long after the request was processed (a late answer). */
    answerLateMs: number;
  }
}

export const faultInjectionPlugin = fp<{ faults: FaultInjector }>(
  async (app, { faults }) => {
    app.decorateRequest("dropAfterProcessing", false);
    app.decorateRequest("answerLateMs", 0);
    app.addHook("onRequest", async (request, reply) => {
      const fault = faults.match(request.method, request.apiTarget.table);
      if (fault) return applyFault(fault, request, reply);
    });
    app.addHook("preHandler", async (request, reply) => {
      const { table, key } = request.apiTarget;
      const fault = faults.match(request.method, table, { key, body: request.body });
      if (fault) return applyFault(fault, request, reply);
    });
    app.addHook("onSend", async (request, _reply, payload) => {
      if (request.dropAfterProcessing) request.raw.socket.destroy();
      if (request.answerLateMs) await sleep(request.answerLateMs);
      return payload;
    });
  },
  { name: "vplatform-fault-injection", dependencies: [API_TARGET] },
);

/** Stall, drop, answer the fault's status, or mark the request to be answered late or dropped after processing. */
async function applyFault(fault: Fault, request: FastifyRequest, reply: FastifyReply) {
  if (fault.stallMs) await sleep(fault.stallMs);
  if (fault.drop) {
    request.raw.socket.destroy();
    return reply.hijack();
  }
  if (fault.status) {
    if (fault.retryAfter !== undefined) reply.header("retry-after", String(fault.retryAfter));
    return sendJson(request, reply, fault.status, { error: `injected fault (status ${fault.status})` });
  }
  if (fault.dropAfter) request.dropAfterProcessing = true;
  if (fault.lateMs) request.answerLateMs = fault.lateMs;
  return undefined;
}
