/** The eventTrigger as a row: its table and its schema's conversion, declared once. */
import type { RowMapping } from "../../reconcile/automation/rows";
import { EVENT_TRIGGER_READ_FIELDS, fromEventTriggerApiRow, toEventTriggerApiBody, type EventTriggerInputs } from "./schema";
import { EVENT_TRIGGER_TABLE } from "../../schemas/tables";

export const eventTriggerRows: RowMapping<EventTriggerInputs> = {
  table: EVENT_TRIGGER_TABLE,
  what: "event trigger",
  readFields: EVENT_TRIGGER_READ_FIELDS,
  toApiBody: toEventTriggerApiBody,
  fromApiRow: fromEventTriggerApiRow,
  identity: "content",
  namesUniqueOnPlatform: false,
};
