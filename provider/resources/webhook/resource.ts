import { type WebhookInputs, webhookInputsSchema, webhookShape } from "./schema";
import { defineResource } from "../framework/defineResource";
import { WEBHOOK_TABLE } from "../../schemas/tables";

export const webhook = defineResource<WebhookInputs, WebhookInputs>({
  token: "Webhook",
  table: WEBHOOK_TABLE,
  description:
    "Where tasks send their messages: a URL, its authorization (secret, write-only) and headers in order. Every change is made in place.",
  schema: webhookInputsSchema,
  shape: webhookShape,
  names: "unique",
  marker: "description",
  nameCheck: false,
});
