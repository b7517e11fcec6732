import { taskRows } from "../reconcile/automation/mappings";
import { TASK_TABLE, type TaskInputs, taskInputsSchema, taskShape } from "../schemas/task";
import { rowBehaviour } from "./automationRow";
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
  ...rowBehaviour(taskShape, taskRows),
});
