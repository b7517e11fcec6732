/**
 * User groups (`groups`), their memberships (`members`: a user or a group inside a parent group) and what happened
 * to them (`group_logs`), as the spec lists them and the maker's clients use them (the Terraform provider's groups
 * data source and member resource, pyVergeOS' and govergeos' group services). A group's `identity` is what
 * `permissions` grant to; its members, nested groups included, act with its grants (services/identity/grants.ts).
 */
import { randomHex, type EmulatorContext } from "../../engine/context";
import { ApiError, validationError } from "../../model/errors";
import { groupIdentity } from "./grants";
import { memberKey, parseMember } from "./members";
import type { Caller, Row } from "../../model/types";
import { listedRows, namedFields, table, timestampFields, uniqueNames } from "../../model/tableParts";
import { IDENTITY } from "../../model/names/identity";
import { ownerReference } from "../../engine/ownerReference";
import { SYSTEM_CALLER } from "../../model/callers";

function log(ctx: EmulatorContext, group: unknown, text: string, caller: Caller): void {
  ctx.insert(IDENTITY.group_logs, { group, level: "audit", text, user: caller.user, timestamp: ctx.nowSeconds() });
}

export const groupsTable = table(IDENTITY.groups, {
  description: "user groups; members hold their users and nested groups",
  ...uniqueNames("a group"),
  fields: {
    ...namedFields({ enabled: true }),
    email: { type: "string", default: "", maxLength: 256 },
    id: { type: "string", default: () => randomHex(40), createOnly: true, description: "global identifier (40 hex)" },
    identity: { type: "uint32", compute: (_ctx, row) => groupIdentity(row.$key), description: "what permissions name this group by" },
    type: { type: "string", readOnly: true, default: "group", enum: { group: "Group", site_sync: "Site Sync" } },
    auth_source: { type: "row", ref: IDENTITY.auth_sources, default: null, description: "external authentication source (null: local)" },
    system_group: { type: "bool", readOnly: true, default: false },
    members: { type: "rows", ref: IDENTITY.members, via: "parent_group" },
    creator: { type: "string", readOnly: true, default: "" },
    ...timestampFields(),
  },
  hooks: {
    beforeCreate: (_ctx, row, caller) => {
      row.creator = caller.user;
    },
    afterCreate: (ctx, row, caller) => log(ctx, row.$key, `group '${String(row.name)}' created`, caller),
    afterUpdate: (ctx, row, _previous, caller) => log(ctx, row.$key, `group '${String(row.name)}' changed`, caller),
    beforeDelete: (_ctx, row) => {
      if (row.system_group === true) throw new ApiError(409, "a system group cannot be deleted");
    },
    afterDelete: (ctx, row) => {
      const member = ownerReference(IDENTITY.groups, row.$key);
      const memberships = ctx.find(IDENTITY.members, (x) => x.parent_group === row.$key || memberKey(x.member) === member);
      for (const m of memberships) ctx.remove(IDENTITY.members, m.$key);
      for (const entry of ctx.find(IDENTITY.group_logs, (x) => x.group === row.$key)) ctx.remove(IDENTITY.group_logs, entry.$key);
      removeGrants(ctx, groupIdentity(row.$key));
    },
  },
  seed: (ctx) => {
    ctx.insert(IDENTITY.groups, {
      name: "Administrators (default)",
      description: "Default administrators group.",
      enabled: true,
      email: "",
      id: randomHex(40),
      type: "group",
      auth_source: null,
      system_group: true,
      creator: SYSTEM_CALLER.user,
      created: ctx.nowSeconds(),
      modified: ctx.nowSeconds(),
    });
  },
});

export const membersTable = table(IDENTITY.members, {
  description: "group memberships: member /v4/users/<key> or /v4/groups/<key> in parent_group; not updatable",
  ...listedRows("int", "create", "delete"),
  fields: {
    parent_group: { type: "row", ref: IDENTITY.groups, required: true, refMustExist: 404 },
    member: { type: "string", required: true, description: "/v4/users/<key> or /v4/groups/<key>" },
    system: { type: "bool", readOnly: true, default: false },
    creator: { type: "string", readOnly: true, default: "" },
    created: { type: "created", readOnly: true },
  },
  hooks: {
    validate: (ctx, row) => {
      const member = parseMember(row.member);
      if (!member) throw validationError("member", "must be /v4/users/<key> or /v4/groups/<key>");
      if (!ctx.get(member.table, member.key)) throw new ApiError(404, `member '${String(row.member)}' not found`);
      if (member.table === IDENTITY.groups && Number(member.key) === row.parent_group) {
        throw validationError("member", "a group cannot contain itself");
      }
    },
    beforeCreate: (ctx, row, caller) => {
      const key = memberKey(row.member);
      if (ctx.find(IDENTITY.members, (m) => m.parent_group === row.parent_group && memberKey(m.member) === key).length) {
        throw new ApiError(409, "already a member of this group");
      }
      row.creator = caller.user;
    },
    afterCreate: (ctx, row, caller) => log(ctx, row.parent_group, `${String(row.member)} added`, caller),
    afterDelete: (ctx, row, caller) => {
      if (ctx.get(IDENTITY.groups, row.parent_group)) log(ctx, row.parent_group, `${String(row.member)} removed`, caller);
    },
  },
});

export const groupLogsTable = table(IDENTITY.group_logs, {
  description: "what happened to a group: creation, changes, members added and removed (read-only)",
  ...listedRows("int"),
  fields: {
    group: { type: "row", ref: IDENTITY.groups, readOnly: true, summary: true },
    level: { type: "string", readOnly: true, enum: { audit: "Audit", message: "Message", warning: "Warning", error: "Error" } },
    text: { type: "text", readOnly: true, summary: true },
    user: { type: "string", readOnly: true },
    timestamp: { type: "uint64", readOnly: true },
  },
});

/** A deleted user leaves its groups. */
export function removeMemberships(ctx: EmulatorContext, user: Row): void {
  const member = ownerReference(IDENTITY.users, user.$key);
  for (const m of ctx.find(IDENTITY.members, (x) => memberKey(x.member) === member)) ctx.remove(IDENTITY.members, m.$key);
}

/** A deleted user or group takes its grants with it. */
export function removeGrants(ctx: EmulatorContext, identity: number): void {
  for (const g of ctx.find(IDENTITY.permissions, (x) => Number(x.identity) === identity)) ctx.remove(IDENTITY.permissions, g.$key);
}
