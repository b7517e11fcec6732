import { type TaskInputs, taskInputsSchema, taskShape } from "./schema";
import { defineResource } from "../framework/defineResource";
import { TASK_TABLE } from "../../schemas/tables";

export const task = defineResource<TaskInputs, TaskInputs>({
  token: "Task",
  table: TASK_TABLE,
  description:
    "Sends a message through a webhook, or powers a VM on or off or enables or disables a user, when an event trigger or a schedule runs it. Changing deleteAfterRunning replaces the task.",
  schema: taskInputsSchema,
  shape: taskShape,
  names: "unique",
  marker: "description",
  nameCheck: false,
});
