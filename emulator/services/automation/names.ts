/** The names of the webhooks, tasks and events tables: the only place they are written (test/emulator/tableNames.test.ts). */
import type { RowEvent } from "../../model/events";

export const WEBHOOK_URLS = "webhook_urls";
export const WEBHOOKS = "webhooks";
export const WEBHOOK_URL_ACTIONS = "webhook_url_actions";
export const TASKS = "tasks";
export const TASK_ACTIONS = "task_actions";
export const TASK_EVENTS = "task_events";
export const TASK_SCHEDULES = "task_schedules";
export const TASK_SCHEDULE_TRIGGERS = "task_schedule_triggers";
export const TASK_EVENT_TYPES = "task_event_types";

export type AutomationTable =
  | typeof WEBHOOK_URLS
  | typeof WEBHOOKS
  | typeof WEBHOOK_URL_ACTIONS
  | typeof TASKS
  | typeof TASK_ACTIONS
  | typeof TASK_EVENTS
  | typeof TASK_SCHEDULES
  | typeof TASK_SCHEDULE_TRIGGERS
  | typeof TASK_EVENT_TYPES;

export type AutomationEvent = RowEvent<AutomationTable>;
