/** The user as a row: its table and its schema's conversion, declared once. */
import type { RowMapping } from "../../reconcile/automation/rows";
import { fromUserApiRow, toUserApiBody, USER_READ_FIELDS, type UserInputs } from "./schema";
import { USER_TABLE } from "../../schemas/tables";

export const userRows: RowMapping<UserInputs> = {
  table: USER_TABLE,
  what: "user",
  readFields: USER_READ_FIELDS,
  toApiBody: toUserApiBody,
  fromApiRow: fromUserApiRow,
  identity: "name",
  namesUniqueOnPlatform: true,
};
