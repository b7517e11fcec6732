/** The group as a row: its table and its schema's conversion, declared once. */
import type { RowMapping } from "../../reconcile/automation/rows";
import { fromGroupApiRow, GROUP_READ_FIELDS, GROUP_TABLE, type GroupInputs, toGroupApiBody } from "./schema";

export const groupRows: RowMapping<GroupInputs> = {
  table: GROUP_TABLE,
  what: "group",
  readFields: GROUP_READ_FIELDS,
  toApiBody: toGroupApiBody,
  fromApiRow: fromGroupApiRow,
  identity: "name",
  namesUniqueOnPlatform: true,
};
