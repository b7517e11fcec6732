import { webhookRows } from "../reconcile/automation/mappings";
import { WEBHOOK_TABLE, type WebhookInputs, webhookInputsSchema, webhookShape } from "../schemas/webhook";
import { rowBehaviour } from "./automationRow";
import { defineResource } from "./defineResource";

declare module "./defineResource" {
  interface ResourceTokens {
    Webhook: true;
  }
}

export const webhook = defineResource<WebhookInputs, WebhookInputs>({
  token: "Webhook",
  table: WEBHOOK_TABLE,
  description:
    "Where tasks send their messages: a URL, its authorization (secret, write-only) and headers in order. Every change is made in place.",
  schema: webhookInputsSchema,
  sdk: { uniqueName: "program" },
  ...rowBehaviour(webhookShape, webhookRows),
});
