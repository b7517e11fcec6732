/**
 * Permission: a grant of rights to a user or a group on a table (every row) or on one row of it, with the five
 * rights the platform checks: list, read, create, modify, delete (the maker's `vergeio_permission`, pyVergeOS'
 * permission manager). What each right allows is the platform's: docs/platform-api.md, "Emulator notes: permissions".
 */
import { z } from "zod";
import { type Problem, raise } from "../../schemas/automationRules";
import { adoptSchema, apiField, keySchema, timeoutsSchema, whenValid } from "../../schemas/common";
import type { FieldCodec } from "../../schemas/fieldCodec";
import { GROUP_TABLE, USER_TABLE } from "../../schemas/tables";

/** The rights of a grant, as the platform names them. */
export const PERMISSION_RIGHTS = ["list", "read", "create", "modify", "delete"] as const;
export type PermissionRight = (typeof PERMISSION_RIGHTS)[number];

/** `/`: every table of the platform. */
export const EVERY_TABLE = "/";

/**
 * The grantee, read back from the grant's identity (its owner's table and key). Nothing is sent from it: a grant
 * names the user's or group's own `identity`, which the create reads from that row (reconcile/identities.ts).
 */
function granteeCodec(table: typeof USER_TABLE | typeof GROUP_TABLE): FieldCodec<string> {
  return {
    columns: ["identity_table", "identity_key"],
    toApi: () => ({}),
    fromApi: (row) => (row.identity_table === table && row.identity_key != null ? String(row.identity_key) : undefined),
  };
}

/** One row of the table: row 0 on the platform is the whole table, so a grant without `row` reads back without one. */
const rowCodec: FieldCodec<string> = {
  columns: ["row"],
  toApi: (row) => ({ row }),
  fromApi: (live) => (live.row === null || live.row === undefined || String(live.row) === "0" ? undefined : String(live.row)),
};

const right = (name: PermissionRight, meaning: string, dflt = false) =>
  apiField(z.boolean().default(dflt), name, "bool", `${meaning} (default ${dflt})`);

export const permissionShape = {
  user: apiField(keySchema.optional(), "identity", "json", "Key of the user the rights are granted to (a User's id); or give group", {
    codec: granteeCodec(USER_TABLE),
    references: { table: USER_TABLE, noun: "user" },
    createOnly: true,
    onChange: "replace",
  }),
  group: apiField(
    keySchema.optional(),
    "identity",
    "json",
    "Key of the group the rights are granted to (a Group's id): every member has them; or give user",
    { codec: granteeCodec(GROUP_TABLE), references: { table: GROUP_TABLE, noun: "group" }, createOnly: true, onChange: "replace" },
  ),
  table: apiField(
    z.string().regex(/^(\/|[a-z][a-z0-9_]{0,63})$/, "a table name (vms, vnets, machine_nics, ...) or / for every table"),
    "table",
    "string",
    "The table the rights apply to (vms, vnets, ...), or / for every table. Changing it replaces the grant",
    { createOnly: true, onChange: "replace" },
  ),
  row: apiField(
    z
      .union([z.string().regex(/^[A-Za-z0-9_.:-]{1,128}$/, "a row key"), z.number().int().positive()], {
        error: 'must be a row key: text ("42") or a whole number above 0',
      })
      .transform(String)
      .refine((key) => key !== "0", "0 is the whole table on the platform: leave row out for every row")
      .optional(),
    "row",
    "json",
    "Key of the one row of the table the rights apply to (a VM's id for table vms); left out: every row. Changing it replaces the grant",
    { codec: rowCodec, createOnly: true, onChange: "replace" },
  ),
  list: right("list", "See the rows in lists (read implies it)", true),
  read: right("read", "Read the rows"),
  create: right("create", "Create rows of the table; on one row: add, change and remove its hardware and snapshots"),
  modify: right("modify", "Change the rows and run their actions (a VM's power, restore, console)"),
  delete: right("delete", "Delete the rows"),
  adopt: adoptSchema,
  timeouts: timeoutsSchema,
};

type Grant = { user?: string; group?: string; table: string; row?: string; list: boolean; read: boolean };

/** A grant names exactly one grantee; `read` implies `list`; a grant on every table names no row. */
export function permissionProblems(p: Grant): Problem[] {
  if (p.user !== undefined && p.group !== undefined)
    return [{ path: ["group"], message: "give user or group, not both: a grant names one grantee (declare two grants for both)" }];
  if (p.user === undefined && p.group === undefined)
    return [{ path: ["user"], message: "give user or group: whom the rights are granted to" }];
  const problems: Problem[] = [];
  if (p.read && !p.list) problems.push({ path: ["list"], message: "read implies list on the platform: leave list out or set it true" });
  if (p.table === EVERY_TABLE && p.row !== undefined)
    problems.push({ path: ["row"], message: "a grant on every table (/) names no row: leave row out, or name the row's table" });
  return problems;
}

export const permissionInputsSchema = z
  .strictObject(permissionShape)
  .superRefine((p, ctx) => raise(ctx, permissionProblems(p)), whenValid("user", "group", "table", "row", "list", "read"));
export type PermissionInputs = z.output<typeof permissionInputsSchema>;
