/**
 * The volume browser feature: volumes backed by host directories, served by
 * one emulated NAS service, browsed and changed through asynchronous
 * `volume_browser` jobs. A job stays `running` for JOB_DURATION_MS × timeScale,
 * then runs its query against the host directory and ends `complete` (result:
 * entries) or `error` (result: the message).
 */
import type { EmulatorContext } from "../../engine/context";
import { applyDefaults } from "../../engine/write";
import type { Service, Row } from "../../model/types";
import { deleteEntries, pasteEntries, renameEntry } from "./fileOperations";
import { getDir, type DirEntry, type GetDirParams } from "./listing";
import { registerImageFiles } from "./mediaFiles";
import type { ParamsOf, Query } from "./params";
import { volumeRoot, VolumeError } from "./sandbox";
import { NAS_SERVICE_NAME, vmServicesTable, volumeBrowserTable, volumeKey, volumesTable } from "./tables";
import { VOLUME_BROWSER } from "../../model/names/volume-browser";

/** Unscaled time a job stays `running` (clients wait 200–500 ms before their first poll). */
export const JOB_DURATION_MS = 300;

export const SERVICE_MISSING = "error getting volumes VM service: no such file or directory";
export const SERVICE_NOT_RUNNING = "VM must be in running state to issue a query";
export const VOLUME_OFFLINE = "volume is offline";

function runQuery(root: string, query: Query, params: ParamsOf[Query]): DirEntry[] {
  switch (query) {
    case "get-dir":
      return getDir(root, params as ParamsOf["get-dir"]);
    case "rename":
      return renameEntry(root, params as ParamsOf["rename"]);
    case "delete":
      return deleteEntries(root, params as ParamsOf["delete"]);
    case "paste":
      return pasteEntries(root, params as ParamsOf["paste"]);
  }
}

/** Host errors are reported without host paths (the volume's location is not the caller's business). */
function jobErrorMessage(error: unknown): string {
  if (error instanceof VolumeError) return error.message;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  if (code === "ENOENT") return "no such file or directory";
  if (code === "ENOTEMPTY" || code === "EEXIST") return "destination exists";
  return `query failed${code ? `: ${code}` : ""}`;
}

/** The checks of the spec's volume browser errors, in the order the NAS path meets them. */
function volumeProblem(ctx: EmulatorContext, volume: Row | undefined): string | undefined {
  const service = volume ? ctx.get(VOLUME_BROWSER.vm_services, volume.service) : undefined;
  if (!volume || !service) return SERVICE_MISSING;
  if (service.status !== "running") return SERVICE_NOT_RUNNING;
  if (volume.status !== "online") return VOLUME_OFFLINE;
  return undefined;
}

function finish(ctx: EmulatorContext, job: Row, status: "complete" | "error", result: unknown): void {
  ctx.update(VOLUME_BROWSER.volume_browser, job.$key, { status, result, modified: ctx.nowSeconds() });
}

export function runJob(ctx: EmulatorContext, hostDirs: ReadonlyMap<string, string>, job: Row): void {
  if (!ctx.get(VOLUME_BROWSER.volume_browser, job.$key)) return; // deleted while running
  const volume = ctx.get(VOLUME_BROWSER.volumes, job.volume);
  const problem = volumeProblem(ctx, volume);
  if (problem) {
    finish(ctx, job, "error", problem);
    return;
  }
  try {
    const root = volumeRoot(hostDirs.get(String(volume!.$key))!);
    const result = runQuery(root, job.query as Query, job.params as ParamsOf[Query]);
    if (job.query === "get-dir")
      registerImageFiles(ctx, String(volume!.$key), (job.params as GetDirParams).dir.replace(/^\/+|\/+$/g, ""), result);
    finish(ctx, job, "complete", result);
  } catch (error) {
    finish(ctx, job, "error", jobErrorMessage(error));
  }
}

/** `volumes`: volume name → host directory backing it. */
export function volumeBrowserFeature(volumes: Record<string, string>): Service {
  const hostDirs = new Map(Object.entries(volumes).map(([name, dir]) => [volumeKey(name), dir]));
  return {
    tables: [
      vmServicesTable,
      volumesTable,
      volumeBrowserTable((ctx, job) => {
        ctx.schedule(JOB_DURATION_MS, () => runJob(ctx, hostDirs, job));
      }),
    ],
    setup: (ctx) => {
      const nas = { name: NAS_SERVICE_NAME, type: "nas", status: "running" };
      const service = ctx.insert(VOLUME_BROWSER.vm_services, applyDefaults(ctx, vmServicesTable, nas));
      for (const name of Object.keys(volumes)) {
        ctx.insert(VOLUME_BROWSER.volumes, applyDefaults(ctx, volumesTable, { $key: volumeKey(name), name, service: service.$key }));
      }
    },
  };
}
