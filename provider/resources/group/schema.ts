/** Group: users (and nested groups) that share the permissions granted to the group. */
import { z } from "zod";
import { adoptSchema, apiField, timeoutsSchema } from "../../schemas/common";
import { codecMappingOf } from "../../schemas/fieldCodec";

export const GROUP_TABLE = "groups";

export const groupShape = {
  name: apiField(z.string().min(1).max(128), "name", "string", "Group name, unique on the platform"),
  description: apiField(z.string().default(""), "description", "string", "Description"),
  enabled: apiField(z.boolean().default(true), "enabled", "bool", "Whether the group's members act with its permissions"),
  adopt: adoptSchema,
  timeouts: timeoutsSchema,
};

export const groupInputsSchema = z.strictObject(groupShape);
export type GroupInputs = z.output<typeof groupInputsSchema>;

export const {
  readFields: GROUP_READ_FIELDS,
  toApiBody: toGroupApiBody,
  fromApiRow: fromGroupApiRow,
} = codecMappingOf<GroupInputs>(groupShape);
