/**
 * Running a task: a task of object type webhook (`owner` "webhook_urls/<key>")
 * with action `send` delivers its message, variables expanded for the object
 * it runs for; a task on a VM (`vms/<key>`: poweron, poweroff, kill) or a user
 * (`users/<key>`: enable, disable) acts on that row at once, as the maker's
 * Task Engine does ("power off a tenant on a specific date", "disable a user").
 * The task is `running` while a run is in progress, then `idle` (delivered,
 * done) or `error`; a one-time task (`delete_after_run`) runs once and is
 * deleted when that run ends.
 */
import type { EmulatorContext } from "../../engine/context";
import { deleteRow } from "../../engine/write";
import { ApiError } from "../../model/errors";
import { kill, powerOff, powerOn } from "../compute/power";
import type { Row } from "../../model/types";
import { deliver } from "./delivery";
import { DEFAULT_MESSAGE, expandMessage, randomInteger } from "./message";
import { runtimeOf } from "./runtime";
import { AUTOMATION } from "../../model/names/automation";
import { IDENTITY } from "../../model/names/identity";
import { SYSTEM_CALLER } from "../../model/callers";
import { COMPUTE } from "../../model/names/compute";

/** Object types a task may act on, each with its actions and their labels (`action_display`). */
export const TASK_OBJECT_ACTIONS: Record<string, Record<string, string>> = {
  [AUTOMATION.webhook_urls]: { send: "Send" },
  [COMPUTE.vms]: { poweron: "Power On", poweroff: "Power Off", kill: "Kill Power" },
  [IDENTITY.users]: { enable: "Enable", disable: "Disable" },
};

/** "vms/3" → { table: "vms", key: "3" }. */
export function taskObjectOf(owner: unknown): { table: string; key: string } | undefined {
  const match = typeof owner === "string" ? /^([a-z_]+)\/(\d+)$/.exec(owner) : null;
  return match && Object.hasOwn(TASK_OBJECT_ACTIONS, match[1]) ? { table: match[1], key: match[2] } : undefined;
}

/** "webhook_urls/3" → "3". */
export function webhookKeyOf(owner: unknown): string | undefined {
  const object = taskObjectOf(owner);
  return object?.table === AUTOMATION.webhook_urls ? object.key : undefined;
}

/** What a task on a VM or a user does to its row. */
const ROW_ACTIONS: Record<string, (ctx: EmulatorContext, row: Row) => void> = {
  poweron: (ctx, vm) => powerOn(ctx, vm),
  poweroff: (ctx, vm) => powerOff(ctx, vm),
  kill: (ctx, vm) => kill(ctx, vm),
  enable: (ctx, user) => ctx.update(IDENTITY.users, user.$key, { enabled: true }),
  disable: (ctx, user) => ctx.update(IDENTITY.users, user.$key, { enabled: false }),
};

/** Runs a task on a VM or a user: done at once; the platform's refusal (a VM already off) is the run's error. */
function runOnRow(ctx: EmulatorContext, task: Row, object: { table: string; key: string }): { status: "idle" | "error"; info: string } {
  const row = ctx.get(object.table, object.key);
  if (!row) return { status: "error", info: `${String(task.owner)} not found` };
  try {
    ROW_ACTIONS[String(task.action)](ctx, row);
    return { status: "idle", info: "" };
  } catch (error) {
    if (error instanceof ApiError) return { status: "error", info: error.message };
    throw error;
  }
}

export function taskMessage(task: Row): string {
  const args = task.settings_args as Record<string, unknown> | null;
  return typeof args?.message === "string" ? args.message : DEFAULT_MESSAGE;
}

/** Deletes a task with its events and schedule links, as the emulator itself. */
export function deleteTask(ctx: EmulatorContext, task: Row): void {
  deleteRow(ctx, ctx.store(AUTOMATION.tasks).def, task, SYSTEM_CALLER);
}

function finishRun(ctx: EmulatorContext, task: Row, outcome: { status: "idle" | "error"; info: string }): void {
  const runtime = runtimeOf(ctx);
  const left = (runtime.activeRuns.get(task.$key) ?? 1) - 1;
  if (left > 0) runtime.activeRuns.set(task.$key, left);
  else runtime.activeRuns.delete(task.$key);
  if (!ctx.get(AUTOMATION.tasks, task.$key)) return;
  if (task.delete_after_run === true) {
    deleteTask(ctx, task);
    return;
  }
  ctx.update(AUTOMATION.tasks, task.$key, { status: left > 0 ? "running" : outcome.status, status_info: outcome.info });
}

/**
 * Runs a task for the object named `objectName` (the `${NAME}` value). Answers
 * the delivery log row, or undefined when nothing was sent (a one-time task
 * already started, a missing webhook, a task on a VM or a user).
 */
export function runTask(ctx: EmulatorContext, task: Row, objectName: string): { log: Row; done: Promise<unknown> } | undefined {
  const runtime = runtimeOf(ctx);
  if (runtime.startedOnce.has(task.$key)) return undefined;
  if (task.delete_after_run === true) runtime.startedOnce.add(task.$key);
  runtime.activeRuns.set(task.$key, (runtime.activeRuns.get(task.$key) ?? 0) + 1);
  ctx.update(AUTOMATION.tasks, task.$key, { status: "running", last_run: ctx.nowSeconds() });
  const object = taskObjectOf(task.owner);
  if (object && object.table !== AUTOMATION.webhook_urls) {
    finishRun(ctx, task, runOnRow(ctx, task, object));
    return undefined;
  }
  const hook = ctx.get(AUTOMATION.webhook_urls, webhookKeyOf(task.owner));
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
