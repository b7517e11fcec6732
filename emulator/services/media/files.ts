/** Stored media files (ISO and disk images) usable as a drive's `media_source`, and their actions. */
import { randomBytes } from "node:crypto";
import { descriptionField, table } from "../../model/tableParts";
import { MEDIA } from "../../model/names/media";
import { VOLUME_BROWSER } from "../../model/names/volume-browser";
import { COMPUTE } from "../../model/names/compute";
import { SYSTEM_CALLER } from "../../model/callers";

const GiB = 1024 ** 3;

export const filesTable = table(MEDIA.files, {
  description: "stored media files (ISO images, disk images) usable as media_source, and the image files of NAS volumes",
  keyType: "int",
  // Names are unique in the media store; a volume's files are told apart by their volume and path.
  unique: { field: "name", message: "a file with that name exists", scope: (row) => !row.volume },
  fields: {
    name: { type: "string", required: true, maxLength: 255, summary: true },
    type: {
      type: "string",
      default: "iso",
      enum: {
        iso: "ISO image",
        qcow2: "QCOW2",
        raw: "Raw",
        vmdk: "VMDK",
        vhd: "VHD",
        vhdx: "VHDX",
        ova: "OVA",
        ovf: "OVF",
        img: "Image",
        other: "Other",
      },
    },
    description: descriptionField(),
    filesize: { type: "uint64", default: 0 },
    allocated_bytes: { type: "uint64", readOnly: true, compute: (_ctx, row) => row.filesize },
    used_bytes: { type: "uint64", readOnly: true, compute: (_ctx, row) => row.filesize },
    preferred_tier: { type: "string", default: "1", enum: { 1: "1", 2: "2", 3: "3", 4: "4", 5: "5" } },
    public_link: { type: "string", readOnly: true, default: "" },
    owner: { type: "row", readOnly: true, default: null, description: "owning row (null: the system)" },
    url: { type: "string", readOnly: true, default: "", description: "download URL of an uploaded-from-URL file" },
    modified: { type: "modified", readOnly: true },
    creator: { type: "string", readOnly: true, default: SYSTEM_CALLER.user },
    volume: {
      type: "row",
      ref: VOLUME_BROWSER.volumes,
      readOnly: true,
      default: null,
      description: "the NAS volume holding the file (null: the media store)",
    },
    volume_path: { type: "string", readOnly: true, default: "", description: "the file's path on its volume" },
    path: {
      type: "string",
      compute: (ctx, row) =>
        row.volume
          ? `/volumes/${String(ctx.get(VOLUME_BROWSER.volumes, row.volume)?.name ?? row.volume)}/${String(row.volume_path)}`
          : `/files/${String(row.name)}`,
      description: "where the file is stored",
    },
  },
  seed: (ctx) => {
    const files = [
      { name: "ubuntu-24.04-live-server-amd64.iso", type: "iso", filesize: 2.6 * GiB },
      { name: "debian-12-netinst.iso", type: "iso", filesize: 0.6 * GiB },
      { name: "virtio-win.iso", type: "iso", filesize: 0.7 * GiB },
      { name: "debian-12-genericcloud-amd64.qcow2", type: "qcow2", filesize: 2 * GiB },
    ];
    for (const f of files)
      ctx.insert(MEDIA.files, {
        ...f,
        filesize: Math.round(f.filesize),
        description: "",
        preferred_tier: "1",
        public_link: "",
        modified: ctx.nowSeconds(),
        creator: SYSTEM_CALLER.user,
      });
  },
});

export const fileActionsTable = table(MEDIA.file_actions, {
  description: "file actions: overwrite, add_link, delete_link, delete_reference",
  keyType: "int",
  operations: ["create"],
  fields: {},
  actions: {
    targetField: "file",
    targetTable: MEDIA.files,
    actions: {
      overwrite: {
        description: "mark the file rewritten",
        handler: (ctx, { target }) => void ctx.update(MEDIA.files, target!.$key, { modified: ctx.nowSeconds() }),
      },
      add_link: {
        description: "create a public download link",
        handler: (ctx, { target }) => {
          const link = `/pub/${randomBytes(12).toString("hex")}/${target!.name}`;
          ctx.update(MEDIA.files, target!.$key, { public_link: link });
          return { body: { response: { link } } };
        },
      },
      delete_link: {
        description: "remove the public link",
        handler: (ctx, { target }) => void ctx.update(MEDIA.files, target!.$key, { public_link: "" }),
      },
      delete_reference: {
        description: "detach the file from drives using it as media_source (cdrom drives lose their medium)",
        handler: (ctx, { target }) => {
          for (const drive of ctx.find(COMPUTE.machine_drives, (d) => d.media_source === target!.$key && d.media === "cdrom")) {
            ctx.update(COMPUTE.machine_drives, drive.$key, { media_source: null });
          }
        },
      },
    },
  },
});
