/**
 * A file backend that a kill cannot break. The engine's blob store (gocloud fileblob) writes each state file
 * to a temporary file and renames it into place, which a kill cannot leave half-done; but by default it also
 * writes a metadata sidecar `<file>.attrs` in place, before that rename, and a kill inside that write leaves
 * the sidecar empty: every later command then fails with `failed to load checkpoint: EOF`. The URL option
 * `metadata=skip` (fileblob's own, gocloud.dev v0.46, which engine v3.259 uses) writes no sidecar, so every
 * write is a rename. A sidecar an older run left damaged is removed before each run: without one, the blob
 * store reads the file with default attributes, which is all the engine needs.
 *
 * A stack's tags file (`<stack>.pulumi-tags`, the engine's diy backend: `{"version":1,"tags":{…}}`) is read
 * before every preview and update, and one that is empty or cut short (a disk that filled, a copy of the
 * directory cut off) fails each with `failed to load stack tags`. The engine has no backup of it and reads a
 * missing one as no tags, so a damaged one is removed too: its tags are lost (vplatform's own, the durations a
 * reset keeps, come back with the next reset). One that reads as JSON is left, whatever its version.
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

/** A stack's tags file: the engine decodes it as one JSON object. */
const TAGS_FILE = ".pulumi-tags";

/** Whether a sidecar or a stack's tags file can be read: the engine decodes each as one JSON object, and an empty one is EOF. */
function jsonObjectReadable(file: string): boolean {
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
 * Removes what a killed run can leave in a file backend's directory: sidecars and stacks' tags files that cannot
 * be read (empty or cut short) and temporary files of writes that never finished. Returns the files removed,
 * relative to `dir`.
 */
export function repairFileState(dir: string, now = Date.now()): string[] {
  const removed: string[] = [];
  for (const file of filesUnder(path.join(dir, ".pulumi"))) {
    const age = now - fs.statSync(file).mtimeMs;
    const damagedSidecar = file.endsWith(".attrs") && age >= SIDECAR_WRITE_MS && !jsonObjectReadable(file);
    // Written by a rename (never half-way in place): one that cannot be read is damaged, whatever its age.
    const damagedTags = file.endsWith(TAGS_FILE) && !jsonObjectReadable(file);
    const strayTmp = STRAY_TMP.test(file) && age >= STRAY_TMP_AGE_MS;
    if (!damagedSidecar && !damagedTags && !strayTmp) continue;
    fs.rmSync(file, { force: true });
    removed.push(path.relative(dir, file));
  }
  return removed;
}

/** The line the CLI prints for what it repaired. */
export function repairedMessage(dir: string, removed: readonly string[]): string {
  const tags = removed.some((f) => f.endsWith(TAGS_FILE)) ? `; a damaged ${TAGS_FILE} file's stack tags are lost with it` : "";
  return `repaired the file backend ${dir}: removed ${removed.length} file(s) left half-written or empty (${removed.join(", ")})${tags}`;
}

/** The command that removes a stack's damaged tags file by hand (stock `pulumi`): its tags are lost. */
export function tagsRepairCommand(dir: string, project = "<project>", stack = "<stack>"): string {
  return `rm ${path.join(dir, ".pulumi", "stacks", project, `${stack}${TAGS_FILE}`)}`;
}

/**
 * The one command that repairs a file backend by hand (stock `pulumi`), with no update running: every sidecar
 * and temporary file goes (a state file without its sidecar reads as well; the engine writes a new one if its
 * URL asks for sidecars).
 */
export function repairCommand(dir: string): string {
  return `find ${dir}/.pulumi \\( -name '*.attrs' -o -name '*.tmp' \\) -delete`;
}
