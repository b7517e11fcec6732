/**
 * A file backend that a kill cannot break. The engine's blob store (gocloud fileblob) writes each state file
 * to a temporary file and renames it into place, which a kill cannot leave half-done; but by default it also
 * writes a metadata sidecar `<file>.attrs` in place, before that rename, and a kill inside that write leaves
 * the sidecar empty: every later command then fails with `failed to load checkpoint: EOF`. The URL option
 * `metadata=skip` (fileblob's own, gocloud.dev v0.46, which engine v3.259 uses) writes no sidecar, so every
 * write is a rename. A sidecar an older run left damaged is removed before each run: without one, the blob
 * store reads the file with default attributes, which is all the engine needs.
 */
import * as fs from "node:fs";
import * as path from "node:path";

/** The blob store's option that writes no `.attrs` sidecar beside each state file. */
export const NO_SIDECAR = "metadata=skip";

/** The file backend URL of a directory, writing no sidecar. */
export function fileBackendUrl(dir: string): string {
  return `file://${dir}?${NO_SIDECAR}`;
}

/** The directory of a file backend URL (`file:///srv/state?metadata=skip` → `/srv/state`); undefined for any other. */
export function fileBackendDir(url: string | undefined): string | undefined {
  if (!url?.startsWith("file://")) return undefined;
  const dir = decodeURIComponent(url.slice("file://".length).split("?")[0]);
  return dir.startsWith("~") ? path.join(process.env.HOME ?? "", dir.slice(1)) : path.resolve(dir);
}

/** A temporary file of a write that never finished: fileblob's `<file>.<hex nanoseconds>.tmp`. */
const STRAY_TMP = /\.[0-9a-f]+\.tmp$/;
/** A temporary file this old belongs to no write still running (a state write takes well under a second). */
export const STRAY_TMP_AGE_MS = 60_000;
/** A sidecar younger than this may be one a stock `pulumi` is writing right now. */
const SIDECAR_WRITE_MS = 5_000;

/** Whether a sidecar can be read: the blob store decodes it as one JSON object, and an empty one is EOF. */
function sidecarReadable(file: string): boolean {
  try {
    const value = JSON.parse(fs.readFileSync(file, "utf8"));
    return typeof value === "object" && value !== null;
  } catch {
    return false;
  }
}

function* filesUnder(dir: string): Generator<string> {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* filesUnder(p);
    else if (e.isFile()) yield p;
  }
}

/**
 * Removes what a killed run can leave in a file backend's directory: sidecars that cannot be read (empty or
 * cut short) and temporary files of writes that never finished. Returns the files removed, relative to `dir`.
 */
export function repairFileState(dir: string, now = Date.now()): string[] {
  const removed: string[] = [];
  for (const file of filesUnder(path.join(dir, ".pulumi"))) {
    const age = now - fs.statSync(file).mtimeMs;
    const damagedSidecar = file.endsWith(".attrs") && age >= SIDECAR_WRITE_MS && !sidecarReadable(file);
    const strayTmp = STRAY_TMP.test(file) && age >= STRAY_TMP_AGE_MS;
    if (!damagedSidecar && !strayTmp) continue;
    fs.rmSync(file, { force: true });
    removed.push(path.relative(dir, file));
  }
  return removed;
}

/** The line the CLI prints for what it repaired. */
export function repairedMessage(dir: string, removed: readonly string[]): string {
  return `repaired the file backend ${dir}: removed ${removed.length} file(s) a killed run left half-written (${removed.join(", ")})`;
}

/**
 * The one command that repairs a file backend by hand (stock `pulumi`), with no update running: every sidecar
 * and temporary file goes (a state file without its sidecar reads as well; the engine writes a new one if its
 * URL asks for sidecars).
 */
export function repairCommand(dir: string): string {
  return `find ${dir}/.pulumi \\( -name '*.attrs' -o -name '*.tmp' \\) -delete`;
}
