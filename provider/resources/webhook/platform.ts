/** The webhook as a row: its table and its schema's conversion, declared once. */
import type { RowMapping } from "../../reconcile/automation/rows";
import { fromWebhookApiRow, toWebhookApiBody, WEBHOOK_READ_FIELDS, type WebhookInputs } from "./schema";
import { WEBHOOK_TABLE } from "../../schemas/tables";

export const webhookRows: RowMapping<WebhookInputs> = {
  table: WEBHOOK_TABLE,
  what: "webhook",
  readFields: WEBHOOK_READ_FIELDS,
  toApiBody: toWebhookApiBody,
  fromApiRow: fromWebhookApiRow,
  identity: "marker",
  namesUniqueOnPlatform: true,
};
