import { taskWebhookCheck } from "../reconcile/automation/checks";
import { taskRows } from "../reconcile/automation/mappings";
import { TASK_TABLE, type TaskInputs, taskInputsSchema, taskShape } from "../schemas/task";
import { asFailures, rowBehaviour } from "./automationRow";
import { defineResource } from "./defineResource";

declare module "./defineResource" {
  interface ResourceTokens {
    Task: true;
  }
}

export const task = defineResource<TaskInputs, TaskInputs>({
  token: "Task",
  table: TASK_TABLE,
  description:
    "Sends a message through a webhook when an event trigger or a schedule runs it. Changing deleteAfterRunning replaces the task.",
  schema: taskInputsSchema,
  sdk: { uniqueName: "program" },
  // The webhook must exist: looked up when it is known and not the one the last run checked.
  verify: async (api, inputs, unknown, olds) =>
    unknown.has("webhook") || olds?.webhook === inputs.webhook ? [] : asFailures(await taskWebhookCheck(api, inputs.webhook)),
  ...rowBehaviour(taskShape, taskRows),
});
