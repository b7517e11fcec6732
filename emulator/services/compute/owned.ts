/**
 * Rows attached to a VM through an owner reference `vms/<key>`: cloud-init
 * files, notes (note_actions) and tags (tags, tag_categories, tag_members).
 */
import type { EmulatorContext } from "../../engine/context";
import { ApiError, validationError } from "../../model/errors";
import { parseOwner } from "./machineState";
import type { TableDef } from "../../model/types";

/** Validates an owner / member reference "<table>/<key>" and that the row exists (404). */
function checkOwnerRef(ctx: EmulatorContext, field: string, value: unknown, tables: string[]): void {
  const owner = parseOwner(value);
  if (!owner || !tables.includes(owner.table)) throw validationError(field, `must be ${tables.map((t) => `${t}/<key>`).join(" or ")}`);
  if (!ctx.get(owner.table, owner.key)) throw new ApiError(404, `${field} '${String(value)}' not found`);
}

export const cloudinitFilesTable: TableDef = {
  name: "cloudinit_files",
  description: "cloud-init files of a VM (owner vms/<key>); ?download=1 answers the raw contents",
  keyType: "int",
  writeRole: "vmoperator",
  owner: "owner",
  downloadField: "contents",
  defaultFields: ["name", "owner", "render", "filesize", "modified"],
  fields: {
    name: { type: "string", required: true, maxLength: 255, summary: true },
    owner: { type: "string", required: true, createOnly: true },
    render: { type: "string", default: "no", enum: { no: "No", variables: "Variables", jinja2: "Jinja2" } },
    contents: { type: "text", default: "", maxLength: 65536, notInMost: true },
    filesize: { type: "uint64", compute: (_ctx, row) => Buffer.byteLength(String(row.contents ?? "")) },
    allocated_bytes: { type: "uint64", compute: (_ctx, row) => Math.ceil(Buffer.byteLength(String(row.contents ?? "")) / 4096) * 4096 },
    used_bytes: { type: "uint64", compute: (_ctx, row) => Buffer.byteLength(String(row.contents ?? "")) },
    contains_variables: { type: "bool", compute: (_ctx, row) => /\$\{[A-Za-z_]+\}|\{\{/.test(String(row.contents ?? "")) },
    modified: { type: "modified", readOnly: true },
    creator: { type: "string", readOnly: true, default: "" },
  },
  hooks: {
    validate: (ctx, row) => checkOwnerRef(ctx, "owner", row.owner, ["vms"]),
    beforeCreate: (ctx, row, caller) => {
      row.creator = caller.user;
      if (ctx.find("cloudinit_files", (f) => f.owner === row.owner && f.name === row.name).length) {
        throw new ApiError(409, `cloud-init file ${String(row.name)} exists for ${String(row.owner)}`);
      }
    },
  },
};

export const noteActionsTable: TableDef = {
  name: "note_actions",
  description: "notes: action update sets the note of the owner row (vms/<key>)",
  keyType: "int",
  operations: ["create"],
  fields: {},
  writeRole: "vmoperator",
  actions: {
    targetField: "owner",
    targetTable: "vms",
    parseTarget: (value) => {
      const owner = parseOwner(value);
      if (owner?.table !== "vms") throw validationError("owner", "must be vms/<key>");
      return owner.key;
    },
    defaultAction: "update",
    actions: {
      update: {
        description: "create or replace the note",
        params: { text: { type: "text", required: true, maxLength: 65536 } },
        handler: (ctx, { target, params }) => {
          ctx.update("vms", target!.$key, { note: params.text, modified: ctx.nowSeconds() });
        },
      },
    },
  },
};

/** What else a category can tag besides VMs (`taggable_<kind>`), as the maker's clients name them. */
const TAGGABLE_ALSO = [
  "vnets",
  "clusters",
  "nodes",
  "volumes",
  "vnet_rules",
  "vmware_containers",
  "users",
  "tenant_nodes",
  "sites",
  "groups",
  "tenants",
];

export const tagCategoriesTable: TableDef = {
  name: "tag_categories",
  description: "tag categories and what they can tag",
  keyType: "int",
  unique: { field: "name", message: "a tag category with that name exists" },
  fields: {
    name: { type: "string", required: true, maxLength: 128, summary: true },
    description: { type: "text", default: "" },
    single_tag_selection: { type: "bool", default: false },
    taggable_vms: { type: "bool", default: true },
    ...Object.fromEntries(TAGGABLE_ALSO.map((kind) => [`taggable_${kind}`, { type: "bool" as const, default: false }])),
    created: { type: "created", readOnly: true },
    modified: { type: "modified", readOnly: true },
  },
};

export const tagsTable: TableDef = {
  name: "tags",
  description: "tags",
  keyType: "int",
  writeRole: "admin",
  unique: { field: "name", message: "a tag with that name exists" },
  fields: {
    name: { type: "string", required: true, maxLength: 128, summary: true },
    category: { type: "row", ref: "tag_categories", refMustExist: 404 },
    description: { type: "text", default: "" },
    members: { type: "rows", ref: "tag_members", via: "tag" },
    created: { type: "created", readOnly: true },
    modified: { type: "modified", readOnly: true },
  },
  hooks: {
    afterDelete: (ctx, row) => {
      for (const m of ctx.find("tag_members", (x) => x.tag === row.$key)) ctx.remove("tag_members", m.$key);
    },
  },
};

export const tagMembersTable: TableDef = {
  name: "tag_members",
  description: "tag memberships (member vms/<key>, vnets/<key>, ...); not updatable",
  keyType: "int",
  operations: ["list", "get", "create", "delete"],
  writeRole: "vmoperator",
  fields: {
    tag: { type: "row", ref: "tags", required: true, refMustExist: 404 },
    member: { type: "string", required: true },
  },
  hooks: {
    validate: (ctx, row) => checkOwnerRef(ctx, "member", row.member, ["vms", "vnets", "clusters", "nodes", "users"]),
    beforeCreate: (ctx, row) => {
      if (ctx.find("tag_members", (m) => m.tag === row.tag && m.member === row.member).length) {
        throw new ApiError(409, "the member already carries this tag");
      }
    },
  },
};
