/** Tags: categories (and what each can tag), tags, and their members (`vms/<key>`, `vnets/<key>`, ...). */
import { checkOwnerRef } from "../../engine/ownerReference";
import { ApiError } from "../../model/errors";
import type { TableDef } from "../../model/types";
import { VNETS } from "../network/names";
import { CLUSTERS, NODES } from "../cluster/names";
import { VOLUMES } from "../volume-browser/names";
import { GROUPS, USERS } from "../identity/names";
import { TAGS, TAG_CATEGORIES, TAG_MEMBERS } from "./names";
import { VMS } from "../compute/names";

/** What else a category can tag besides VMs (`taggable_<kind>`), as the maker's clients name them. */
const TAGGABLE_ALSO = [
  VNETS,
  CLUSTERS,
  NODES,
  VOLUMES,
  "vnet_rules",
  "vmware_containers",
  USERS,
  "tenant_nodes",
  "sites",
  GROUPS,
  "tenants",
];

export const tagCategoriesTable: TableDef = {
  name: TAG_CATEGORIES,
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
  name: TAGS,
  description: TAGS,
  keyType: "int",
  writeRole: "admin",
  unique: { field: "name", message: "a tag with that name exists" },
  fields: {
    name: { type: "string", required: true, maxLength: 128, summary: true },
    category: { type: "row", ref: TAG_CATEGORIES, refMustExist: 404 },
    description: { type: "text", default: "" },
    members: { type: "rows", ref: TAG_MEMBERS, via: "tag" },
    created: { type: "created", readOnly: true },
    modified: { type: "modified", readOnly: true },
  },
  hooks: {
    afterDelete: (ctx, row) => {
      for (const m of ctx.find(TAG_MEMBERS, (x) => x.tag === row.$key)) ctx.remove(TAG_MEMBERS, m.$key);
    },
  },
};

export const tagMembersTable: TableDef = {
  name: TAG_MEMBERS,
  description: "tag memberships (member vms/<key>, vnets/<key>, ...); not updatable",
  keyType: "int",
  operations: ["list", "get", "create", "delete"],
  writeRole: "vmoperator",
  fields: {
    tag: { type: "row", ref: TAGS, required: true, refMustExist: 404 },
    member: { type: "string", required: true },
  },
  hooks: {
    validate: (ctx, row) => checkOwnerRef(ctx, "member", row.member, [VMS, VNETS, CLUSTERS, NODES, USERS]),
    beforeCreate: (ctx, row) => {
      if (ctx.find(TAG_MEMBERS, (m) => m.tag === row.tag && m.member === row.member).length) {
        throw new ApiError(409, "the member already carries this tag");
      }
    },
  },
};
