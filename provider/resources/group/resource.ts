import { rowBehaviour } from "../framework/automationRow";
import { defineResource } from "../framework/defineResource";
import { groupRows } from "./platform";
import { GROUP_TABLE, type GroupInputs, groupInputsSchema, groupShape } from "./schema";

export const group = defineResource<GroupInputs, GroupInputs>({
  token: "Group",
  table: GROUP_TABLE,
  description: "A group of users: permissions granted to it reach every member (GroupMember), nested groups included.",
  schema: groupInputsSchema,
  sdk: { refuseDuplicateNames: "inProgram" },
  ...rowBehaviour(groupShape, groupRows),
});
