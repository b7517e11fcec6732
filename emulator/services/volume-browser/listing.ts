/**
 * The `get-dir` query: read one directory of the volume, then filter by
 * extension, sort and page. Reading is the only I/O; the rest are pure
 * functions over result entries.
 */
import { readdirSync, realpathSync, statSync, type Stats } from "node:fs";
import { join } from "node:path";
import { isInside, resolveDirectory } from "./sandbox";

/** One entry of a job `result` (spec "Result entry"). */
export interface DirEntry {
  name: string;
  n_name: string;
  size: number;
  date: number;
  type: "file" | "directory";
}

export interface GetDirParams {
  dir: string;
  limit: number;
  offset: number | null;
  filter: { extensions: string };
  volume: string;
  sort: string;
}

export const SORT_KEYS = ["name", "size", "date"] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export const SORT_PATTERN = /^[+-]?(name|size|date)$/;

/** The result entry of a stat; directories report size 0 (file systems disagree on their size). */
export function toEntry(name: string, stats: Stats): DirEntry {
  const directory = stats.isDirectory();
  return {
    name,
    n_name: name.toLowerCase(),
    size: directory ? 0 : stats.size,
    date: Math.floor(stats.mtimeMs / 1000),
    type: directory ? "directory" : "file",
  };
}

/**
 * Entries of a real directory. Links are shown as what they point to when the
 * target is inside the volume; broken links, links leading outside and special
 * files (sockets, devices) are not shown.
 */
export function readEntries(root: string, directory: string): DirEntry[] {
  const entries: DirEntry[] = [];
  for (const dirent of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, dirent.name);
    let stats: Stats;
    try {
      if (dirent.isSymbolicLink() && !isInside(root, realpathSync(path))) continue;
      stats = statSync(path);
    } catch {
      continue;
    }
    if (stats.isFile() || stats.isDirectory()) entries.push(toEntry(dirent.name, stats));
  }
  return entries;
}

/** "iso, .QCOW2" → {iso, qcow2}; "" → undefined (all files). */
export function parseExtensions(list: string): Set<string> | undefined {
  const extensions = list
    .split(",")
    .map((e) => e.trim().replace(/^\./, "").toLowerCase())
    .filter((e) => e !== "");
  return extensions.length ? new Set(extensions) : undefined;
}

/** Keeps directories (so a caller can navigate) and files whose extension is listed. */
export function filterByExtensions(entries: DirEntry[], extensions: Set<string> | undefined): DirEntry[] {
  if (!extensions) return entries;
  return entries.filter((e) => {
    if (e.type === "directory") return true;
    const dot = e.n_name.lastIndexOf(".");
    return dot > 0 && extensions.has(e.n_name.slice(dot + 1));
  });
}

/**
 * Sorts directories first, then by the sort field ("" = "+name"; `-` reverses
 * the field order only), ties broken by normalized name, then name.
 */
export function sortEntries(entries: DirEntry[], sort: string): DirEntry[] {
  const spec = sort === "" ? "+name" : sort;
  const descending = spec.startsWith("-");
  const key = spec.replace(/^[+-]/, "") as SortKey;
  const byName = (a: DirEntry, b: DirEntry) =>
    a.n_name < b.n_name ? -1 : a.n_name > b.n_name ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  const byKey = (a: DirEntry, b: DirEntry) => (key === "name" ? byName(a, b) : a[key] - b[key]);
  return [...entries].sort((a, b) => {
    if (a.type !== b.type) return a.type === "directory" ? -1 : 1;
    const order = byKey(a, b) * (descending ? -1 : 1);
    return order !== 0 ? order : byName(a, b);
  });
}

/** Offset null = first page; limit 0 = no limit. */
export function page<T>(entries: T[], offset: number | null, limit: number): T[] {
  const start = offset ?? 0;
  return entries.slice(start, limit > 0 ? start + limit : undefined);
}

export function getDir(root: string, params: GetDirParams): DirEntry[] {
  const directory = resolveDirectory(root, params.dir);
  const entries = filterByExtensions(readEntries(root, directory), parseExtensions(params.filter.extensions));
  return page(sortEntries(entries, params.sort), params.offset, params.limit);
}
