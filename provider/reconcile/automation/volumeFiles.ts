/**
 * Files of a NAS volume through the volume browser: a `get-dir` job is
 * created, waited for in the shared status poller until `complete` or
 * `error` (the spec's polling rule: a first look after 200–500 ms, then
 * while `running`), and its `result` is the page of entries. A job ending in
 * `error` fails with the platform's message.
 */
import { quoteLiteral } from "../../client/query-string";
import { mediaPathProblems, notMediaProblems, type Problem } from "../../schemas/automationRules";
import { str, type PlatformApi, type Row } from "../platform";
import type { Session } from "../session";
import { waitForRow } from "../statusPoller";
import type { Clock } from "../waitFor";
import { rowByName } from "./rows";
import { FILE_TABLE } from "../../schemas/tables";

const JOBS = "volume_browser";
/** The spec: up to 30 polls; the poller reads at most every 1/30 of the timeout, so 30 s allows them. */
const JOB_TIMEOUT_SEC = 30;

export interface Volume {
  key: string;
  name: string;
  status: string;
}

export interface VolumeEntry {
  name: string;
  /** Relative to the volume's root, `/` separated. */
  path: string;
  size: number;
  /** Modification time, Unix seconds. */
  date: number;
  type: "file" | "directory";
}

export interface DirectoryQuery {
  directory: string;
  extensions: readonly string[];
  limit: number;
  offset: number;
}

/** A job that ended in `error`, with the platform's message. */
export class VolumeJobError extends Error {
  override name = "VolumeJobError";
  constructor(
    readonly platformMessage: string,
    message: string,
  ) {
    super(message);
  }
  /** Whether the job failed because the path is not there (rather than the service or the volume). */
  get pathMissing(): boolean {
    return /no such file or directory: |not a directory: /.test(this.platformMessage);
  }
}

export async function findVolume(api: PlatformApi, name: string): Promise<Volume> {
  const row = await rowByName(api, "volumes", "NAS volume", name, "$key,name,status");
  return { key: str(row.$key), name: str(row.name), status: str(row.status) };
}

/** The spec's get-dir params: every field given, the root as "", the first page's offset null. */
export function getDirParams(volumeKey: string, q: DirectoryQuery): Row {
  return {
    dir: q.directory.replace(/^\/+|\/+$/g, ""),
    limit: q.limit,
    offset: q.offset === 0 ? null : q.offset,
    filter: { extensions: q.extensions.map((e) => e.replace(/^\./, "")).join(",") },
    volume: volumeKey,
    sort: "",
  };
}

/** One page of a directory's entries (directories first, then by name, as the platform sorts). */
export async function listDirectory(api: Session, volume: Volume, q: DirectoryQuery, clock?: Clock): Promise<VolumeEntry[]> {
  const job = await api.create(JOBS, { volume: volume.key, query: "get-dir", params: getDirParams(volume.key, q) });
  const label = `the listing of '${q.directory}' on the NAS volume '${volume.name}'`;
  const row = await waitForRow(
    api,
    JOBS,
    "status,result",
    {
      key: job.$key,
      kind: "directory listing",
      done(r) {
        if (!r) throw new Error(`vplatform: ${label} vanished (job ${job.$key}): list again`);
        if (r.status === "error") throw new VolumeJobError(str(r.result), `vplatform: ${label} failed: ${str(r.result)}`);
        return r.status === "complete";
      },
      describe: (r) => str(r?.status ?? "missing"),
    },
    { timeoutSec: JOB_TIMEOUT_SEC, label, clock },
  );
  const dir = getDirParams(volume.key, q).dir as string;
  return (Array.isArray(row?.result) ? row.result : []).map((e: Row) => ({
    name: str(e.name),
    path: dir === "" ? str(e.name) : `${dir}/${str(e.name)}`,
    size: Number(e.size ?? 0),
    date: Number(e.date ?? 0),
    type: e.type === "directory" ? "directory" : "file",
  }));
}

/** A file on a volume, with the key of the media file (`files` row) the platform keeps for it: a drive's mediaSource. */
export type MediaFile = VolumeEntry & { volume: string; id: string };

/**
 * A media file by its path on a volume, or the problem that refuses the path (named at `path`). The directory is
 * listed first (the file must be on the volume); the platform's NAS keeps a `files` row for each ISO or disk image
 * it lists, found by its volume and path.
 */
export async function findMediaFile(
  api: Session,
  volumeName: string,
  path: string,
  clock?: Clock,
): Promise<{ file: MediaFile } | { problems: Problem[] }> {
  const volume = await findVolume(api, volumeName);
  const parts = path.split("/").filter(Boolean);
  const name = parts.pop() ?? "";
  const extension = /\.([A-Za-z0-9_-]+)$/.exec(name)?.[1];
  const query = { directory: parts.join("/"), extensions: extension ? [extension] : [], limit: 0, offset: 0 };
  let entries: VolumeEntry[] | undefined;
  try {
    entries = await listDirectory(api, volume, query, clock);
  } catch (err) {
    if (!(err instanceof VolumeJobError && err.pathMissing)) throw err;
  }
  const problems = mediaPathProblems(path, volumeName, entries);
  if (problems.length > 0) return { problems };
  const entry = entries!.find((e) => e.name === name)!;
  const filter = `volume eq ${quoteLiteral(volume.key)} and volume_path eq ${quoteLiteral(entry.path)}`;
  const [media] = await api.list(FILE_TABLE, { filter, fields: "$key", limit: 1 });
  if (!media) return { problems: notMediaProblems(path, volumeName) };
  return { file: { ...entry, volume: volume.key, id: str(media.$key) } };
}
