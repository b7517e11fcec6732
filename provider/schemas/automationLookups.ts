/**
 * Arguments of the look-ups that go with the automation resources: users, NAS
 * volumes by name, the files of a volume (the volume browser), a media file by
 * path, the platform's event types, and rows of any other table (read-only).
 */
import { z } from "zod";

const described = <T extends z.ZodType>(schema: T, description: string) => schema.meta({ description });

const name = (what: string) => described(z.string().min(1), `Name of the ${what}`);

/** A path inside a volume: relative, `/` separated, no `..` (the volume browser refuses the rest). */
const volumePath = z
  .string()
  .refine(
    (p) => !p.startsWith("/") && !/^[A-Za-z]:[\\/]/.test(p),
    'is relative to the volume\'s root: write "images", not "/images" ("" is the root)',
  )
  .refine((p) => !p.split(/[\\/]/).includes(".."), "stays inside the volume: remove the '..' segments")
  .refine((p) => !p.includes("\0"), "holds a NUL byte");

/** The argument of a look-up by name (getVnet, getCluster, ...). */
export const nameArgsSchema = z.strictObject({ name: described(z.string().min(1), "Name to look up") });

export const getUserArgsSchema = z.strictObject({ name: name("user") });

export const getNasVolumeArgsSchema = z.strictObject({ name: name("NAS volume") });

/** Entries per page when no limit is given: one volume-browser job answers it. */
export const DEFAULT_FILES_PAGE = 1000;

export const getVolumeFilesArgsSchema = z.strictObject({
  volume: name("NAS volume"),
  directory: described(volumePath.default(""), 'Directory, relative to the volume\'s root ("" = the root)'),
  extensions: described(
    z.array(z.string().regex(/^\.?[A-Za-z0-9_-]+$/, 'an extension is letters and digits, e.g. "iso"')).default([]),
    'Only files with these extensions (e.g. ["iso", "qcow2"]; directories are always listed); [] = all',
  ),
  limit: described(z.number().int().min(1).max(10_000).default(DEFAULT_FILES_PAGE), `Entries per page (default ${DEFAULT_FILES_PAGE})`),
  offset: described(z.number().int().min(0).default(0), "Entries to skip: the page starts after them (default 0)"),
});

export const getMediaFileByPathArgsSchema = z.strictObject({
  volume: name("NAS volume"),
  path: described(
    volumePath.refine((p) => p.replace(/[\\/]+$/, "") !== "", "names a file: e.g. images/ubuntu.iso"),
    "Path of the file, relative to the volume's root (e.g. images/ubuntu.iso)",
  ),
});

export const getEventTypesArgsSchema = z.strictObject({
  type: described(z.string().min(1).optional(), "Only this event type (e.g. vms); default: every type"),
});

/** Tables the generic look-up cannot read: action tables take POSTs only. */
const isActionTable = (table: string) => table.endsWith("_actions");

export const getTableRowsArgsSchema = z.strictObject({
  table: described(
    z
      .string()
      .regex(/^[a-z][a-z0-9_]*$/, "a table name is lower case letters, digits and _ (e.g. clusters)")
      .refine((t) => !isActionTable(t), "is an action table, which is only posted to: read the table it acts on"),
    "Table of the platform (e.g. clusters, certificates, licenses, logs)",
  ),
  fields: described(
    z.array(z.string().min(1)).default([]),
    'Fields of each row (e.g. ["name", "status"]); [] = the table\'s default fields',
  ),
  filter: described(z.string().optional(), "Filter expression, e.g. \"enabled eq true and name bw 'prod'\""),
  sort: described(
    z
      .string()
      .regex(/^[+-]?[A-Za-z0-9_$#]+$/, 'a field with + or - in front, e.g. "-created"')
      .optional(),
    "Sort field, + ascending or - descending",
  ),
  limit: described(z.number().int().min(0).default(100), "At most this many rows (0 = all; default 100)"),
});

export type GetVolumeFilesArgs = z.output<typeof getVolumeFilesArgsSchema>;
export type GetMediaFileByPathArgs = z.output<typeof getMediaFileByPathArgsSchema>;
export type GetTableRowsArgs = z.output<typeof getTableRowsArgsSchema>;
