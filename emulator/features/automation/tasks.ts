/**
 * Running a task: a task of object type webhook (`owner` "webhook_urls/<key>")
 * with action `send` delivers its message, variables expanded for the object
 * it runs for. The task is `running` while a run is in progress, then `idle`
 * (delivered) or `error`; a one-time task (`delete_after_run`) runs once and
 * is deleted when that run ends.
 */
import type { EmulatorContext } from "../../core/context";
import { deleteRow } from "../../core/engine";
import type { Caller, Row } from "../../tables/types";
import { deliver } from "./delivery";
import { DEFAULT_MESSAGE, expandMessage, randomInteger } from "./message";
import { runtimeOf } from "./runtime";

/** The emulator itself, deleting a one-time task. */
const SYSTEM: Caller = { user: "system", role: "admin", ip: "127.0.0.1" };

/** "webhook_urls/3" → "3". */
export function webhookKeyOf(owner: unknown): string | undefined {
  const match = typeof owner === "string" ? /^webhook_urls\/(\d+)$/.exec(owner) : null;
  return match ? match[1] : undefined;
}

export function taskMessage(task: Row): string {
  const args = task.settings_args as Record<string, unknown> | null;
  return typeof args?.message === "string" ? args.message : DEFAULT_MESSAGE;
}

function finishRun(ctx: EmulatorContext, task: Row, outcome: { status: "idle" | "error"; info: string }): void {
  const runtime = runtimeOf(ctx);
  const left = (runtime.activeRuns.get(task.$key) ?? 1) - 1;
  if (left > 0) runtime.activeRuns.set(task.$key, left);
  else runtime.activeRuns.delete(task.$key);
  if (!ctx.get("tasks", task.$key)) return;
  if (task.delete_after_run === true) {
    deleteRow(ctx, ctx.store("tasks").def, task, SYSTEM);
    return;
  }
  ctx.update("tasks", task.$key, { status: left > 0 ? "running" : outcome.status, status_info: outcome.info });
}

/**
 * Runs a task for the object named `objectName` (the `${NAME}` value). Answers
 * the delivery log row, or undefined when nothing was sent (a one-time task
 * already started, a missing webhook).
 */
export function runTask(ctx: EmulatorContext, task: Row, objectName: string): { log: Row; done: Promise<unknown> } | undefined {
  const runtime = runtimeOf(ctx);
  if (runtime.startedOnce.has(task.$key)) return undefined;
  if (task.delete_after_run === true) runtime.startedOnce.add(task.$key);
  runtime.activeRuns.set(task.$key, (runtime.activeRuns.get(task.$key) ?? 0) + 1);
  ctx.update("tasks", task.$key, { status: "running", last_run: ctx.nowSeconds() });
  const hook = ctx.get("webhook_urls", webhookKeyOf(task.owner));
  if (!hook) {
    finishRun(ctx, task, { status: "error", info: `webhook ${String(task.owner)} not found` });
    return undefined;
  }
  const message = expandMessage(taskMessage(task), { nowMs: ctx.now(), name: objectName, random: randomInteger });
  const { log, done } = deliver(ctx, hook, message, task.$key);
  const finished = done.then((final) => {
    if (runtime.isClosed) return;
    const sent = final.status === "sent";
    finishRun(ctx, task, {
      status: sent ? "idle" : "error",
      info: sent ? "" : `delivery ${String(log.$key)} failed: ${String(final.status_info)}`,
    });
  });
  return { log, done: finished };
}
