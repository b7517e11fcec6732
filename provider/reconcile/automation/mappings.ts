/** The row mapping of each automation resource: its table and its schema's conversion, declared once. */
import {
  API_KEY_OUTPUT_COLUMNS,
  API_KEY_READ_FIELDS,
  API_KEY_TABLE,
  fromApiKeyApiRow,
  toApiKeyApiBody,
  type ApiKeyInputs,
} from "../../schemas/apiKey";
import {
  EVENT_TRIGGER_READ_FIELDS,
  EVENT_TRIGGER_TABLE,
  fromEventTriggerApiRow,
  toEventTriggerApiBody,
  type EventTriggerInputs,
} from "../../schemas/eventTrigger";
import { fromScheduleApiRow, SCHEDULE_READ_FIELDS, SCHEDULE_TABLE, toScheduleApiBody, type ScheduleInputs } from "../../schemas/schedule";
import { fromTaskApiRow, TASK_READ_FIELDS, TASK_TABLE, toTaskApiBody, type TaskInputs } from "../../schemas/task";
import { fromUserApiRow, toUserApiBody, USER_READ_FIELDS, USER_TABLE, type UserInputs } from "../../schemas/user";
import { fromWebhookApiRow, toWebhookApiBody, WEBHOOK_READ_FIELDS, WEBHOOK_TABLE, type WebhookInputs } from "../../schemas/webhook";
import type { RowMapping } from "./rows";

export const userRows: RowMapping<UserInputs> = {
  table: USER_TABLE,
  what: "user",
  readFields: USER_READ_FIELDS,
  toApiBody: toUserApiBody,
  fromApiRow: fromUserApiRow,
  identity: "name",
  uniqueName: true,
};

/** The key's read-only columns (created, last login) are read with its inputs: the outputs come from the same GET. */
export const apiKeyRows: RowMapping<ApiKeyInputs> = {
  table: API_KEY_TABLE,
  what: "API key",
  readFields: [API_KEY_READ_FIELDS, ...Object.values(API_KEY_OUTPUT_COLUMNS)].join(","),
  toApiBody: toApiKeyApiBody,
  fromApiRow: fromApiKeyApiRow,
  identity: "marker",
  uniqueName: false,
};

export const webhookRows: RowMapping<WebhookInputs> = {
  table: WEBHOOK_TABLE,
  what: "webhook",
  readFields: WEBHOOK_READ_FIELDS,
  toApiBody: toWebhookApiBody,
  fromApiRow: fromWebhookApiRow,
  identity: "marker",
  uniqueName: true,
};

export const taskRows: RowMapping<TaskInputs> = {
  table: TASK_TABLE,
  what: "task",
  readFields: TASK_READ_FIELDS,
  toApiBody: toTaskApiBody,
  fromApiRow: fromTaskApiRow,
  identity: "marker",
  uniqueName: true,
};

export const eventTriggerRows: RowMapping<EventTriggerInputs> = {
  table: EVENT_TRIGGER_TABLE,
  what: "event trigger",
  readFields: EVENT_TRIGGER_READ_FIELDS,
  toApiBody: toEventTriggerApiBody,
  fromApiRow: fromEventTriggerApiRow,
  identity: "content",
  uniqueName: false,
};

export const scheduleRows: RowMapping<ScheduleInputs> = {
  table: SCHEDULE_TABLE,
  what: "schedule",
  readFields: SCHEDULE_READ_FIELDS,
  toApiBody: toScheduleApiBody,
  fromApiRow: fromScheduleApiRow,
  identity: "marker",
  uniqueName: true,
};
