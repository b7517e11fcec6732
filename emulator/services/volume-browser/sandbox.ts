/**
 * Path resolution inside a volume's host directory. Every path a job names is
 * relative to the volume root; nothing may reach outside it: `..` segments,
 * absolute paths, NUL bytes and symbolic links whose target lies outside the
 * root are refused with a VolumeError (the job's error message).
 */
import { lstatSync, realpathSync, statSync, type Stats } from "node:fs";
import { join, sep } from "node:path";

/** A failure of a job: its message becomes the job `result` with status `error`. */
export class VolumeError extends Error {}

/** The relative path's segments, or a VolumeError for a path that could leave the root. */
export function pathSegments(relative: string): string[] {
  if (relative.includes("\0")) throw new VolumeError("invalid path: NUL byte");
  if (/^([/\\]|[A-Za-z]:)/.test(relative))
    throw new VolumeError(`invalid path '${relative}': absolute paths are not allowed (use '' for the root)`);
  // Backslashes count as separators so Windows-style paths cannot smuggle a `..` in.
  const segments = relative.split(/[/\\]/).filter((s) => s !== "" && s !== ".");
  if (segments.includes("..")) throw new VolumeError(`invalid path '${relative}': path escapes the volume`);
  return segments;
}

/** A single file name as given to rename or produced by paste: no separators, not `.` or `..`. */
export function checkEntryName(name: string): void {
  if (name.includes("\0")) throw new VolumeError("invalid name: NUL byte");
  if (name === "" || name === "." || name === ".." || /[/\\]/.test(name)) throw new VolumeError(`invalid name '${name}'`);
}

export function isInside(root: string, real: string): boolean {
  return real === root || real.startsWith(root.endsWith(sep) ? root : root + sep);
}

function realpathInside(root: string, path: string, shown: string): string {
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    throw new VolumeError(`no such file or directory: '${shown}'`);
  }
  if (!isInside(root, real)) throw new VolumeError(`invalid path '${shown}': path escapes the volume`);
  return real;
}

/** The volume root with symbolic links resolved (the reference for every containment check). */
export function volumeRoot(hostDir: string): string {
  try {
    return realpathSync(hostDir);
  } catch {
    throw new VolumeError("volume is not mounted: its directory is missing");
  }
}

/** A directory inside the volume, links followed (they must stay inside). */
export function resolveDirectory(root: string, relative: string): string {
  const real = realpathInside(root, join(root, ...pathSegments(relative)), relative);
  if (!statSync(real).isDirectory()) throw new VolumeError(`not a directory: '${relative}'`);
  return real;
}

export interface Entry {
  /** Real directory holding the entry. */
  parent: string;
  name: string;
  /** `parent/name`: the entry itself (a link is not followed, so rename/delete act on the link). */
  path: string;
  stats: Stats;
}

/**
 * An existing entry (file, directory or link) named by a relative path. The
 * volume root itself is not an entry. A link must point inside the volume.
 */
export function resolveEntry(root: string, relative: string): Entry {
  const segments = pathSegments(relative);
  if (segments.length === 0) throw new VolumeError("the volume root cannot be the target of this query");
  const name = segments[segments.length - 1];
  const parent = realpathInside(root, join(root, ...segments.slice(0, -1)), relative);
  const path = join(parent, name);
  let stats: Stats;
  try {
    stats = lstatSync(path);
  } catch {
    throw new VolumeError(`no such file or directory: '${relative}'`);
  }
  if (stats.isSymbolicLink()) realpathInside(root, path, relative);
  return { parent, name, path, stats };
}

/** A path for a new entry `name` in the real directory `parent`; it must not exist yet. */
export function newEntryPath(parent: string, name: string): string {
  checkEntryName(name);
  const path = join(parent, name);
  let exists = true;
  try {
    lstatSync(path);
  } catch {
    exists = false;
  }
  if (exists) throw new VolumeError(`destination exists: '${name}'`);
  return path;
}
