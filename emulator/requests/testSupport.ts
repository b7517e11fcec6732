/**
 * Helpers for the feature tests: a fresh context with the built-in tables and
 * the features under test, the three callers, the engine entry points the
 * HTTP server uses, and polling for asynchronous state.
 */
import { InMemoryContext, type EmulatorContext } from "../engine/context";
import { ApiError } from "../model/errors";
import { deleteByKey, postToTable, updateRow } from "./operations";
import { readRow } from "../engine/read";
import { seedUsers } from "../services/identity/users";
import { CORE_SERVICES } from "../services";
import type { Caller, Service } from "../model/types";

export const admin: Caller = { user: "admin", role: "admin", ip: "127.0.0.1" };
export const operator: Caller = { user: "operator", role: "vmoperator", ip: "127.0.0.1" };
export const viewer: Caller = { user: "viewer", role: "readonly", ip: "127.0.0.1" };

export function contextWith(features: Service[], timeScale = 0.001): EmulatorContext {
  const ctx = new InMemoryContext(timeScale);
  for (const service of [...CORE_SERVICES, ...features]) ctx.registerService(service);
  ctx.seed();
  seedUsers(ctx, "admin-password");
  return ctx;
}

/** POST /v4/<table> as the server does it; answers the creation body. */
export function post(ctx: EmulatorContext, table: string, body: unknown, caller: Caller = admin): Record<string, unknown> {
  return postToTable(ctx, ctx.store(table).def, body, caller).body as Record<string, unknown>;
}

export function put(ctx: EmulatorContext, table: string, key: unknown, body: unknown, caller: Caller = admin): void {
  updateRow(ctx, ctx.store(table).def, String(key), body, caller);
}

export function del(ctx: EmulatorContext, table: string, key: unknown, caller: Caller = admin): void {
  deleteByKey(ctx, ctx.store(table).def, String(key), caller);
}

/** GET /v4/<table>/<key>?fields=... as the server does it. */
export function get(ctx: EmulatorContext, table: string, key: unknown, fields?: string): Record<string, unknown> {
  const row = ctx.get(table, key);
  if (!row) throw new Error(`${table}/${String(key)} not found`);
  return readRow(ctx, ctx.store(table).def, row, fields);
}

/** Polls `probe` every few milliseconds until it answers a value (not undefined). */
export async function eventually<T>(probe: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("condition not reached in time");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The ApiError a refused request throws (fails the test when the request is accepted). */
export function refusal(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error("expected the request to be refused");
}
