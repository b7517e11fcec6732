/**
 * The changing queries of the volume browser: `rename`, `delete` and `paste`
 * (copy or move). Each checks every path it will touch before changing
 * anything, so a refused job leaves the volume as it was.
 */
import { cpSync, renameSync, rmSync } from "node:fs";
import { sep } from "node:path";
import { readEntries, type DirEntry } from "./listing";
import { newEntryPath, resolveDirectory, resolveEntry, VolumeError } from "./sandbox";

export interface RenameParams {
  path: string;
  name: string;
}
export interface DeleteParams {
  paths: string[];
}
export interface PasteParams {
  action: "copy" | "move";
  sources: string[];
  destination: string;
}

/** The result entries of `names` in a real directory, as get-dir shows them. */
function entriesNamed(root: string, directory: string, names: string[]): DirEntry[] {
  return readEntries(root, directory).filter((e) => names.includes(e.name));
}

/** Renames one entry within its directory; answers the renamed entry. */
export function renameEntry(root: string, params: RenameParams): DirEntry[] {
  const entry = resolveEntry(root, params.path);
  const target = newEntryPath(entry.parent, params.name);
  renameSync(entry.path, target);
  return entriesNamed(root, entry.parent, [params.name]);
}

/** Deletes files, links (not their targets) and directories with their contents; answers []. */
export function deleteEntries(root: string, params: DeleteParams): DirEntry[] {
  const entries = params.paths.map((p) => resolveEntry(root, p));
  for (const entry of entries) rmSync(entry.path, { recursive: true, force: true });
  return [];
}

function isSameOrBelow(path: string, ancestor: string): boolean {
  return path === ancestor || path.startsWith(ancestor + sep);
}

/** Moves across file systems fall back to copy + delete. */
function moveEntry(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EXDEV") throw e;
    cpSync(from, to, { recursive: true, errorOnExist: true, force: false, verbatimSymlinks: true });
    rmSync(from, { recursive: true, force: true });
  }
}

/**
 * Copies or moves entries into a destination directory under their own names;
 * answers the pasted entries. Links are copied as links: one that now points
 * outside the volume is kept but, like any such link, neither shown nor followed.
 */
export function pasteEntries(root: string, params: PasteParams): DirEntry[] {
  const destination = resolveDirectory(root, params.destination);
  const plan = params.sources.map((source) => {
    const entry = resolveEntry(root, source);
    if (entry.stats.isDirectory() && isSameOrBelow(destination, entry.path)) {
      throw new VolumeError(`cannot paste '${source}' into itself`);
    }
    return { entry, target: newEntryPath(destination, entry.name) };
  });
  const names = plan.map((p) => p.entry.name);
  const clash = names.find((n, i) => names.indexOf(n) !== i);
  if (clash !== undefined) throw new VolumeError(`destination exists: '${clash}'`);
  for (const { entry, target } of plan) {
    if (params.action === "move") moveEntry(entry.path, target);
    else cpSync(entry.path, target, { recursive: true, errorOnExist: true, force: false, verbatimSymlinks: true });
  }
  return entriesNamed(root, destination, names);
}
