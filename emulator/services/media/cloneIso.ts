/** The clone-ISO builder: its status row and its actions (build, cancel, delete); a build ends as a `files` row. */
import { ApiError } from "../../model/errors";
import { listedRows, table } from "../../model/tableParts";
import { MEDIA } from "../../model/names/media";
import { SYSTEM_CALLER } from "../../model/callers";

export const cloneIsoTable = table(MEDIA.clone_iso, {
  description: "status of the clone-ISO builder (one row)",
  ...listedRows("int"),
  fields: {
    status: { type: "string", readOnly: true, summary: true },
    progress: { type: "uint8", readOnly: true },
    file: { type: "row", ref: MEDIA.files, readOnly: true },
    modified: { type: "modified", readOnly: true },
  },
  seed: (ctx) => {
    ctx.insert(MEDIA.clone_iso, { status: "idle", progress: 0, file: null, modified: ctx.nowSeconds() });
  },
});

const BUILD_MS = 4000;

export const cloneIsoActionsTable = table(MEDIA.clone_iso_actions, {
  description: "clone-ISO actions: update (build), delete, cancel",
  keyType: "int",
  operations: ["create"],
  fields: {},
  actions: {
    defaultAction: "update",
    actions: {
      update: {
        description: "build the clone ISO: building, then complete with a files row",
        handler: (ctx) => {
          const row = ctx.all(MEDIA.clone_iso)[0];
          if (row.status === "building") throw new ApiError(409, "a clone ISO build is in progress");
          ctx.update(MEDIA.clone_iso, row.$key, { status: "building", progress: 0, modified: ctx.nowSeconds() });
          ctx.schedule(BUILD_MS, () => {
            if (ctx.get(MEDIA.clone_iso, row.$key)?.status !== "building") return;
            const existing = ctx.find(MEDIA.files, (f) => f.name === "clone.iso")[0];
            const file =
              existing ??
              ctx.insert(MEDIA.files, {
                name: "clone.iso",
                type: "iso",
                description: "system clone ISO",
                filesize: 512 * 1024 ** 2,
                preferred_tier: "1",
                public_link: "",
                modified: ctx.nowSeconds(),
                creator: SYSTEM_CALLER.user,
              });
            ctx.update(MEDIA.clone_iso, row.$key, { status: "complete", progress: 100, file: file.$key, modified: ctx.nowSeconds() });
          });
        },
      },
      cancel: {
        description: "cancel a running build",
        handler: (ctx) => {
          const row = ctx.all(MEDIA.clone_iso)[0];
          if (row.status !== "building") throw new ApiError(409, "no clone ISO build is running");
          ctx.update(MEDIA.clone_iso, row.$key, { status: "cancelled", progress: 0, modified: ctx.nowSeconds() });
        },
      },
      delete: {
        description: "delete the built clone ISO",
        handler: (ctx) => {
          const row = ctx.all(MEDIA.clone_iso)[0];
          if (row.file !== null) ctx.remove(MEDIA.files, row.file as number);
          ctx.update(MEDIA.clone_iso, row.$key, { status: "idle", progress: 0, file: null, modified: ctx.nowSeconds() });
        },
      },
    },
  },
});
