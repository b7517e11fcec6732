/** Tags: categories (and what each can tag), tags, and their members (`vms/<key>`, `vnets/<key>`, ...). */
import { checkOwnerRef } from "../../engine/ownerReference";
import { ApiError } from "../../model/errors";
import { descriptionField, listedRows, nameField, namedFields, table, timestampFields, uniqueNames } from "../../model/tableParts";
import { NETWORK } from "../../model/names/network";
import { CLUSTER } from "../../model/names/cluster";
import { VOLUME_BROWSER } from "../../model/names/volume-browser";
import { IDENTITY } from "../../model/names/identity";
import { TAGS } from "../../model/names/tags";
import { COMPUTE } from "../../model/names/compute";

/** What else a category can tag besides VMs (`taggable_<kind>`), as the maker's clients name them. */
const TAGGABLE_ALSO = [
  NETWORK.vnets,
  CLUSTER.clusters,
  CLUSTER.nodes,
  VOLUME_BROWSER.volumes,
  "vnet_rules",
  "vmware_containers",
  IDENTITY.users,
  "tenant_nodes",
  "sites",
  IDENTITY.groups,
  "tenants",
];

export const tagCategoriesTable = table(TAGS.tag_categories, {
  description: "tag categories and what they can tag",
  ...uniqueNames("a tag category"),
  fields: {
    ...namedFields(),
    single_tag_selection: { type: "bool", default: false },
    taggable_vms: { type: "bool", default: true },
    ...Object.fromEntries(TAGGABLE_ALSO.map((kind) => [`taggable_${kind}`, { type: "bool" as const, default: false }])),
    ...timestampFields(),
  },
});

export const tagsTable = table(TAGS.tags, {
  description: TAGS.tags,
  writeRole: "admin",
  ...uniqueNames("a tag"),
  fields: {
    name: nameField(),
    category: { type: "row", ref: TAGS.tag_categories, refMustExist: 404 },
    description: descriptionField(),
    members: { type: "rows", ref: TAGS.tag_members, via: "tag" },
    ...timestampFields(),
  },
  hooks: {
    afterDelete: (ctx, row) => {
      for (const m of ctx.find(TAGS.tag_members, (x) => x.tag === row.$key)) ctx.remove(TAGS.tag_members, m.$key);
    },
  },
});

export const tagMembersTable = table(TAGS.tag_members, {
  description: "tag memberships (member vms/<key>, vnets/<key>, ...); not updatable",
  ...listedRows("int", "create", "delete"),
  writeRole: "vmoperator",
  fields: {
    tag: { type: "row", ref: TAGS.tags, required: true, refMustExist: 404 },
    member: { type: "string", required: true },
  },
  hooks: {
    validate: (ctx, row) =>
      checkOwnerRef(ctx, "member", row.member, [COMPUTE.vms, NETWORK.vnets, CLUSTER.clusters, CLUSTER.nodes, IDENTITY.users]),
    beforeCreate: (ctx, row) => {
      if (ctx.find(TAGS.tag_members, (m) => m.tag === row.tag && m.member === row.member).length) {
        throw new ApiError(409, "the member already carries this tag");
      }
    },
  },
});
