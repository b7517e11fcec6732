/**
 * Group: users (and nested groups) that share the permissions granted to the group. Its members are declared on it
 * (`users`, `memberGroups`) rather than as a resource each: one declaration says who is in the group, so a member
 * added elsewhere (a user putting itself in) is drift a refresh shows and the next update removes, and a change of
 * members is an update of the group, not a replacement (the platform's `members` rows cannot be changed, only made
 * and deleted). A list left out is not managed: another stack may keep that group's members.
 */
import { z } from "zod";
import { adoptSchema, apiField, keySchema, providerField, timeoutsSchema } from "../../schemas/common";
import { GROUP_TABLE, USER_TABLE } from "../../schemas/tables";

/** Member keys in one order, each once: the platform's membership rows have no order. */
const memberKeys = z
  .array(keySchema)
  .transform((keys) => [...new Set(keys)].sort((a, b) => Number(a) - Number(b)))
  .optional();

export const groupShape = {
  name: apiField(z.string().min(1).max(128), "name", "string", "Group name, unique on the platform"),
  description: apiField(z.string().default(""), "description", "string", "Description"),
  enabled: apiField(z.boolean().default(true), "enabled", "bool", "Whether the group's members act with its permissions"),
  users: providerField(
    memberKeys,
    "Keys of the users in the group (User ids): exactly these, so a user added elsewhere is drift; left out: its users are not managed",
    { references: { table: USER_TABLE, noun: "user" }, onChange: "action" },
  ),
  memberGroups: providerField(
    memberKeys,
    "Keys of the groups nested in this one (Group ids), whose members have its permissions too: exactly these; left out: not managed",
    { references: { table: GROUP_TABLE, noun: "group" }, onChange: "action" },
  ),
  adopt: adoptSchema,
  timeouts: timeoutsSchema,
};

export const groupInputsSchema = z.strictObject(groupShape);
export type GroupInputs = z.output<typeof groupInputsSchema>;
