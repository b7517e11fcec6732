/**
 * Webhook delivery: one `webhooks` log row per delivery, moving queued →
 * running → sent | error. A delivery makes 1 + `retries` attempts; each waits
 * at most `timeout` seconds (real seconds: network waits are not scaled), and
 * a failed attempt is retried after RETRY_DELAY_MS × timeScale.
 */
import type { EmulatorContext } from "../../engine/context";
import type { Row, RowKey } from "../../model/types";
import { parseHeaderLines, requestHeaders, type AuthorizationType } from "./headers";
import { runtimeOf } from "./runtime";
import { sendOnce, type AttemptOutcome } from "./send";
import { AUTOMATION } from "../../model/names/automation";

/** Unscaled pause between attempts. */
export const RETRY_DELAY_MS = 1000;
/** The delivery log keeps at most this many rows, for at most LOG_RETENTION_S. */
export const MAX_LOG_ROWS = 3000;
export const LOG_RETENTION_S = 70 * 86400;

/** The settings of a webhook as they were when the delivery started (later edits do not change it). */
interface WebhookTarget {
  url: string;
  headers: ReturnType<typeof requestHeaders>;
  timeoutMs: number;
  attempts: number;
  allowInsecure: boolean;
}

function targetOf(hook: Row): WebhookTarget {
  const configured = parseHeaderLines(String(hook.headers ?? ""));
  return {
    url: String(hook.url),
    headers: requestHeaders(
      typeof configured === "string" ? [] : configured,
      hook.authorization_type as AuthorizationType,
      String(hook.authorization_value ?? ""),
    ),
    timeoutMs: Number(hook.timeout) * 1000,
    attempts: 1 + Number(hook.retries),
    allowInsecure: hook.allow_insecure === true,
  };
}

function dropOldLogRows(ctx: EmulatorContext): void {
  const expired = ctx.nowSeconds() - LOG_RETENTION_S;
  const rows = ctx.all(AUTOMATION.webhooks);
  let excess = rows.length - MAX_LOG_ROWS;
  for (const row of rows) {
    const finished = row.status === "sent" || row.status === "error";
    if (finished && (excess > 0 || Number(row.created) < expired)) {
      ctx.remove(AUTOMATION.webhooks, row.$key);
      excess--;
    }
  }
}

function pause(ctx: EmulatorContext, ms: number): Promise<void> {
  return new Promise((resolve) => ctx.schedule(ms, resolve));
}

async function attemptAll(ctx: EmulatorContext, log: Row, target: WebhookTarget, message: string): Promise<Row> {
  const runtime = runtimeOf(ctx);
  let outcome: AttemptOutcome = { delivered: false, info: "not attempted" };
  for (let attempt = 1; attempt <= target.attempts && !runtime.isClosed; attempt++) {
    if (attempt > 1) await pause(ctx, RETRY_DELAY_MS);
    if (!ctx.get(AUTOMATION.webhooks, log.$key)) return log; // the log row was deleted: stop quietly
    ctx.update(AUTOMATION.webhooks, log.$key, { status: "running", attempts: attempt, last_attempt: ctx.nowSeconds() });
    const { signal, release } = runtime.track();
    outcome = await sendOnce({
      url: target.url,
      headers: target.headers,
      body: message,
      timeoutMs: target.timeoutMs,
      allowInsecure: target.allowInsecure,
      signal,
    });
    release();
    if (!ctx.get(AUTOMATION.webhooks, log.$key)) return log;
    ctx.update(AUTOMATION.webhooks, log.$key, { status_info: outcome.info, response_code: outcome.statusCode ?? null });
    if (outcome.delivered) return ctx.update(AUTOMATION.webhooks, log.$key, { status: "sent" });
  }
  return ctx.get(AUTOMATION.webhooks, log.$key) ? ctx.update(AUTOMATION.webhooks, log.$key, { status: "error" }) : log;
}

/** Starts a delivery of `message` (variables already expanded) through a webhook_urls row. */
export function deliver(ctx: EmulatorContext, hook: Row, message: string, task: RowKey | null): { log: Row; done: Promise<Row> } {
  dropOldLogRows(ctx);
  const log = ctx.insert(AUTOMATION.webhooks, {
    webhook_url: hook.$key,
    task,
    message,
    status: "queued",
    status_info: "",
    attempts: 0,
    last_attempt: 0,
    response_code: null,
    created: ctx.nowSeconds(),
  });
  const target = targetOf(hook);
  // Attempts start on the next turn, so the answer to the request that queued the delivery comes first.
  const done = new Promise<void>((resolve) => setImmediate(resolve)).then(() => attemptAll(ctx, log, target, message));
  return { log, done };
}
