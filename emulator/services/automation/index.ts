/**
 * The webhooks, tasks and events feature: its tables, one subscription to
 * every event on the context bus that runs the tasks whose events match, and
 * one to schedule changes that (re-)arms their timers. Closing the context
 * aborts deliveries in flight and drops the timers.
 */
import type { EmulatorContext, EmulatorEvent } from "../../engine/context";
import type { Service } from "../../model/types";
import { catalogRows, dispatchEvent } from "./events";
import { runtimeOf } from "./runtime";
import { armSchedule } from "./schedules";
import { automationTables } from "./tables";
import { deleteTask } from "./tasks";
import { AUTOMATION } from "../../model/names/automation";
import { COMPUTE } from "../../model/names/compute";
import { IDENTITY } from "../../model/names/identity";
import { ROW_CHANGES, rowEvent } from "../../model/events";
import { ownerReference } from "../../engine/ownerReference";
import { onBusEvent } from "../events";

export { resumeSchedules } from "./schedules";

export function automationFeature(): Service {
  return {
    tables: automationTables,
    setup: (ctx) => {
      for (const row of catalogRows(ctx)) ctx.insert(AUTOMATION.task_event_types, row);
      const onEvent = (event: EmulatorEvent) => dispatchEvent(ctx, event);
      ctx.events.on("*", onEvent);
      // A task acts on one object: it goes with it (the webhook's own delete is refused while a task uses it).
      for (const table of [COMPUTE.vms, IDENTITY.users]) {
        onBusEvent(ctx, rowEvent(table, "deleted"), (event) => {
          for (const task of ctx.find(AUTOMATION.tasks, (t) => t.owner === ownerReference(table, event.row.$key))) deleteTask(ctx, task);
        });
      }
      for (const change of ROW_CHANGES) {
        onBusEvent(ctx, rowEvent(AUTOMATION.task_schedules, change), (event) => armSchedule(ctx, event.row.$key));
      }
      // EmulatorContext.close() drops every listener: that is the moment to stop deliveries.
      ctx.events.on("removeListener", (_name: string, listener: unknown) => {
        if (listener === onEvent) runtimeOf(ctx).close();
      });
    },
  };
}

const INTERRUPTED = "interrupted by an emulator restart";

/** After a saved state is loaded: deliveries and task runs in flight did not survive the restart. */
export function settleAutomation(ctx: EmulatorContext): void {
  for (const log of ctx.find(AUTOMATION.webhooks, (w) => w.status === "queued" || w.status === "running")) {
    Object.assign(log, { status: "error", status_info: INTERRUPTED });
  }
  for (const task of ctx.find(AUTOMATION.tasks, (t) => t.status === "running")) {
    if (task.delete_after_run === true) ctx.remove(AUTOMATION.tasks, task.$key);
    else Object.assign(task, { status: "error", status_info: INTERRUPTED });
  }
}
