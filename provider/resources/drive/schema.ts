import { z } from "zod";
import { adoptSchema, apiField, keySchema, timeoutsSchema, whenValid } from "../../schemas/common";
import { machineOwnerShape } from "../../schemas/hardware";
import { MIB, bytesText } from "../../schemas/sizes";
import { FILE_TABLE } from "../../schemas/tables";

/** The platform table its rows live in. */

export const DRIVE_MEDIA = [
  "disk",
  "cdrom",
  "import",
  "clone",
  "efidisk",
  "9p",
  "dir",
  "clone9p",
  "clonedir",
  "nonpersistent",
  "nonpersistent9p",
  "nonpersistentdir",
] as const;
export const DRIVE_INTERFACES = [
  "virtio-scsi",
  "virtio",
  "ide",
  "ahci",
  "nvme",
  "cifs",
  "nfs",
  "vsan",
  "lsi53c895a",
  "megasas",
  "megasas-gen2",
  "mptsas1068",
  "virtio-scsi-dedicated",
  "pflash",
  "direct",
  "tpm_state",
  "usb",
] as const;

/** The platform's smallest drive. A size below it is a size meant in another unit (`disksize: 20` for 20 GiB). */
export const MIN_DRIVE_SIZE = MIB;

/**
 * Why a size below the smallest drive is refused, and how to write the size meant: `writeGiB(20)` is how the
 * declaration's language spells 20 GiB (bytes in code, a unit in YAML). Numbers under 1024 read as GiB meant.
 */
export function belowSmallestDrive(bytes: number, writeGiB: (gib: number) => string): string {
  const meant = Number.isInteger(bytes) && bytes >= 1 && bytes < 1024 ? `; for ${bytes} GiB write ${writeGiB(bytes)}` : "";
  const read = bytes >= 1024 ? ` (${bytesText(bytes)})` : "";
  return `${bytes} is ${bytes} bytes${read}, below the smallest drive (${bytesText(MIN_DRIVE_SIZE)})${meant}`;
}

export const driveShape = {
  ...machineOwnerShape("drive"),
  name: apiField(z.string().min(1).max(128).optional(), "name", "string", "Drive name"),
  description: apiField(z.string().optional(), "description", "string", "Description"),
  media: apiField(z.enum(DRIVE_MEDIA).default("disk"), "media", "string", "Media type (changing it replaces the drive)", {
    onChange: "replace",
  }),
  interface: apiField(z.enum(DRIVE_INTERFACES).default("virtio-scsi"), "interface", "string", "Drive interface"),
  disksize: apiField(
    z
      .number()
      .int()
      .min(MIN_DRIVE_SIZE, { error: (issue) => belowSmallestDrive(Number(issue.input), (gib) => `${gib} * 2 ** 30`) })
      .optional(),
    "disksize",
    "int",
    "Size in bytes, at least 1 MiB (20 GiB is 20 * 2 ** 30). Drives only grow: a smaller size REPLACES the drive (its data is lost)",
    { onChange: "growOnly" },
  ),
  preferredTier: apiField(
    z.number().int().min(1, "storage tier must be 1 to 5").max(5, "storage tier must be 1 to 5").optional(),
    "preferred_tier",
    "stringInt",
    "Preferred storage tier, 1 to 5",
  ),
  mediaSource: apiField(
    keySchema.optional(),
    "media_source",
    "key",
    "Key of the source media (files) for import, clone and cdrom, where it is required (changing it replaces the drive)",
    { onChange: "replace", references: { table: FILE_TABLE, noun: "file" } },
  ),
  showPt: apiField(z.boolean().optional(), "show_pt", "stringBool", "Override the media source's default tier"),
  enabled: apiField(z.boolean().optional(), "enabled", "bool", "Whether the drive is enabled"),
  readonly: apiField(z.boolean().optional(), "readonly", "bool", "Read-only drive"),
  adopt: adoptSchema,
  timeouts: timeoutsSchema,
};

export const DRIVE_RULE_FIELDS = ["media", "mediaSource", "disksize"];
export const driveInputsSchema = z.strictObject(driveShape).superRefine(checkDrive, whenValid(...DRIVE_RULE_FIELDS));

export function checkDrive(d: { media?: string; mediaSource?: string; disksize?: number }, ctx: z.RefinementCtx): void {
  if ((d.media === "import" || d.media === "clone" || d.media === "cdrom") && d.mediaSource === undefined)
    ctx.addIssue({ code: "custom", path: ["mediaSource"], message: `media '${d.media}' needs a mediaSource` });
  if (d.media === "disk" && d.disksize === undefined && d.mediaSource === undefined)
    ctx.addIssue({ code: "custom", path: ["disksize"], message: "a new disk needs a disksize (bytes)" });
}

export type DriveInputs = z.output<typeof driveInputsSchema>;
