/**
 * A NAS volume's image files as media files. The spec types a drive's
 * `media_source` as a key of `files`; the emulator's NAS keeps an index of the
 * image files it has listed: each ISO or disk image a `get-dir` job shows is a
 * `files` row with `volume` (its volume's key) and `volume_path` (its path on
 * the volume), registered when its directory is listed and kept up to date
 * (size, time) by later listings. A cdrom or import drive takes that row's key.
 */
import type { EmulatorContext } from "../../engine/context";
import type { Row } from "../../model/types";
import type { DirEntry } from "./listing";
import { MEDIA } from "../../model/names/media";
import { SYSTEM_CALLER } from "../../model/callers";

/** Extension → the `files` type of an image file (the other files of a volume are no media). */
const IMAGE_TYPES: Readonly<Record<string, string>> = {
  iso: "iso",
  qcow2: "qcow2",
  raw: "raw",
  vmdk: "vmdk",
  vhd: "vhd",
  vhdx: "vhdx",
  ova: "ova",
  ovf: "ovf",
  img: "img",
};

export const imageType = (name: string): string | undefined => IMAGE_TYPES[name.toLowerCase().split(".").pop() ?? ""];

/** The `files` row of the image file at `path` on the volume, if it was registered. */
export function volumeFileRow(ctx: EmulatorContext, volumeKey: string, path: string): Row | undefined {
  return ctx.find(MEDIA.files, (f) => f.volume === volumeKey && f.volume_path === path)[0];
}

/** Registers (or refreshes) the image files among the entries a listing of `dir` answered. */
export function registerImageFiles(ctx: EmulatorContext, volumeKey: string, dir: string, entries: readonly DirEntry[]): void {
  for (const entry of entries) {
    const type = entry.type === "file" ? imageType(entry.name) : undefined;
    if (!type) continue;
    const path = dir === "" ? entry.name : `${dir}/${entry.name}`;
    const known = volumeFileRow(ctx, volumeKey, path);
    const seen = { filesize: entry.size, modified: entry.date };
    if (known) {
      if (known.filesize !== entry.size || known.modified !== entry.date) ctx.update(MEDIA.files, known.$key, seen);
      continue;
    }
    ctx.insert(MEDIA.files, {
      name: entry.name,
      type,
      description: "",
      ...seen,
      preferred_tier: "1",
      public_link: "",
      creator: SYSTEM_CALLER.user,
      volume: volumeKey,
      volume_path: path,
    });
  }
}
