/** The automation service's table names, each written only here (test/emulator/tableNames.test.ts): `AUTOMATION.webhook_urls`. */
import type { RowEvent } from "../events";
import { tableNames } from "../tableNames";

export const AUTOMATION = tableNames(
  "webhook_urls",
  "webhooks",
  "webhook_url_actions",
  "tasks",
  "task_actions",
  "task_events",
  "task_schedules",
  "task_schedule_triggers",
  "task_event_types",
);
/** What the bus tells of these tables: their rows' changes. */
export type AutomationEvent = RowEvent<keyof typeof AUTOMATION>;
declare module "../events" {
  interface ServiceEvents {
    automation: AutomationEvent;
  }
}
