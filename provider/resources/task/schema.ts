/**
 * Task: sends a message through a webhook (the spec's object type Webhook,
 * action Send) when an event trigger or a schedule runs it. The message may
 * use ${DATE}, ${TIMESTAMP}, ${RANDOM} and ${NAME}, and nothing else.
 */
import { z } from "zod";
import { adoptSchema, apiField, keySchema, timeoutsSchema, whenValid } from "../../schemas/common";
import { messageVariableProblems, raise } from "../../schemas/automationRules";
import { codecMappingOf, jsonMemberCodec, ownerKeyCodec } from "../../schemas/fieldCodec";
import { WEBHOOK_TABLE } from "../webhook/schema";

export const TASK_TABLE = "tasks";

/** The spec: "a basic key/value pair whose value is the string Webhook". */
export const DEFAULT_TASK_MESSAGE = '{"message": "Webhook"}';

export const taskShape = {
  name: apiField(z.string().min(1).max(128), "name", "string", "Task name, unique on the platform"),
  description: apiField(z.string().default(""), "description", "string", "Description"),
  enabled: apiField(z.boolean().default(true), "enabled", "bool", "Whether events and schedules run the task"),
  webhook: apiField(keySchema, "owner", "json", "Key of the webhook the task sends to (a Webhook's id)", {
    codec: ownerKeyCodec("owner", WEBHOOK_TABLE),
    references: { table: WEBHOOK_TABLE, noun: "webhook" },
  }),
  message: apiField(
    z.string().max(65536).default(DEFAULT_TASK_MESSAGE),
    "settings_args",
    "json",
    'Payload sent (default {"message": "Webhook"}); ${DATE}, ${TIMESTAMP}, ${RANDOM} and ${NAME} are expanded',
    { codec: jsonMemberCodec("settings_args", "message") },
  ),
  deleteAfterRunning: apiField(
    z.boolean().default(false),
    "delete_after_run",
    "bool",
    "One-time task: the platform deletes it after its first run (the next update then creates it again). Changing it replaces the task",
    { onChange: "replace" },
  ),
  adopt: adoptSchema,
  timeouts: timeoutsSchema,
};

export const taskInputsSchema = z
  .strictObject(taskShape)
  .superRefine((t, ctx) => raise(ctx, messageVariableProblems(t.message)), whenValid("message"));
export type TaskInputs = z.output<typeof taskInputsSchema>;

export const { readFields: TASK_READ_FIELDS, toApiBody: toTaskApiBody, fromApiRow: fromTaskApiRow } = codecMappingOf<TaskInputs>(taskShape);
