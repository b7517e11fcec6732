/** Rows a VM owns through an owner reference `vms/<key>`: its cloud-init files and its note (note_actions). */
import { checkOwnerRef, parseOwner } from "../../engine/ownerReference";
import { ApiError, validationError } from "../../model/errors";
import { table } from "../../model/tableParts";
import { COMPUTE } from "../../model/names/compute";

export const cloudinitFilesTable = table(COMPUTE.cloudinit_files, {
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
    validate: (ctx, row) => checkOwnerRef(ctx, "owner", row.owner, [COMPUTE.vms]),
    beforeCreate: (ctx, row, caller) => {
      row.creator = caller.user;
      if (ctx.find(COMPUTE.cloudinit_files, (f) => f.owner === row.owner && f.name === row.name).length) {
        throw new ApiError(409, `cloud-init file ${String(row.name)} exists for ${String(row.owner)}`);
      }
    },
  },
});

export const noteActionsTable = table(COMPUTE.note_actions, {
  description: "notes: action update sets the note of the owner row (vms/<key>)",
  keyType: "int",
  operations: ["create"],
  fields: {},
  writeRole: "vmoperator",
  actions: {
    targetField: "owner",
    targetTable: COMPUTE.vms,
    parseTarget: (value) => {
      const owner = parseOwner(value);
      if (owner?.table !== COMPUTE.vms) throw validationError("owner", "must be vms/<key>");
      return owner.key;
    },
    defaultAction: "update",
    actions: {
      update: {
        description: "create or replace the note",
        params: { text: { type: "text", required: true, maxLength: 65536 } },
        handler: (ctx, { target, params }) => {
          ctx.update(COMPUTE.vms, target!.$key, { note: params.text, modified: ctx.nowSeconds() });
        },
      },
    },
  },
});
