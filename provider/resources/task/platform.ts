/** The task as a row: its table and its schema's conversion, declared once. */
import type { RowMapping } from "../../reconcile/automation/rows";
import { fromTaskApiRow, TASK_READ_FIELDS, toTaskApiBody, type TaskInputs } from "./schema";
import { TASK_TABLE } from "../../schemas/tables";

export const taskRows: RowMapping<TaskInputs> = {
  table: TASK_TABLE,
  what: "task",
  readFields: TASK_READ_FIELDS,
  toApiBody: toTaskApiBody,
  fromApiRow: fromTaskApiRow,
  identity: "marker",
  namesUniqueOnPlatform: true,
};
