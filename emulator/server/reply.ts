/** What every route of the server shares: the JSON answer, the body limit, query and header helpers. */
import type { FastifyReply, FastifyRequest } from "fastify";
import { ApiError } from "../model/errors";

/** Request body limit (the spec leaves it open): 4 MiB, answered 413 beyond. */
export const BODY_LIMIT = 4 * 1024 * 1024;

/** Answers JSON, indented when the client sends `X-JSON-Non-Compact` (any value but `0`). */
export function sendJson(request: FastifyRequest, reply: FastifyReply, status: number, body: unknown): FastifyReply {
  const pretty = request.headers["x-json-non-compact"] !== undefined && request.headers["x-json-non-compact"] !== "0";
  reply.code(status);
  if (body === undefined) return reply.send();
  return reply.type("application/json; charset=utf-8").send(JSON.stringify(body, null, pretty ? 2 : undefined));
}

export function intOption(query: Record<string, string>, name: string): number | undefined {
  const value = query[name];
  if (value === undefined || value === "") return undefined;
  if (!/^\d+$/.test(value)) throw new ApiError(400, `Validation error on field: '${name}' - 'must be a non-negative integer'`, "err");
  return Number(value);
}

export function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
