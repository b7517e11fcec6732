import * as pulumi from "@pulumi/pulumi";
import { platformApiFromConfig } from "../provider/reconcile/platformClient";
import { Session } from "../provider/reconcile/session";
import { LOOKUP_FUNCTIONS, type LookupName, runLookup } from "../provider/resources/lookupFunctions";
import type * as T from "./schemaTypes.generated";
import type { Computed, DeepInput } from "./types";

/** A row as the API returns it (the public declarations import nothing of provider/). */
export type TableRow = { [column: string]: unknown };

/**
 * Look-ups run in the program process (not the provider process), so they get
 * their own session and client, configured from the program's stack config (raw
 * values: no secret warnings, nothing captured) with the usual env fallbacks.
 */
let session: Session | undefined;
function programSession(): Session {
  session ??= new Session(platformApiFromConfig((key) => pulumi.runtime.getConfig(key)));
  return session;
}

/**
 * The look-up `fn` (provider/resources/lookupFunctions declares each, its arguments and its result), typed as
 * generated from that declaration: the arguments are checked before any request, each problem named by its argument.
 */
function lookup<A, R>(fn: LookupName): (args: A) => Promise<Computed<R>> {
  const declared = LOOKUP_FUNCTIONS.find((f) => f.name === fn)!;
  return async (args) => (await runLookup(declared, programSession(), args)) as Computed<R>;
}

/** The same look-up taking outputs of other resources: it runs once they are known. */
const outputOf =
  <A, R>(run: (a: A) => Promise<R>) =>
  (args: DeepInput<A>): pulumi.Output<R> =>
    pulumi.output(args).apply((a) => run(a as A)) as pulumi.Output<R>;

export const getVnet = lookup<T.GetVnetArgs, T.GetVnetResult>("getVnet");
export const getVirtualMachine = lookup<T.GetVirtualMachineArgs, T.GetVirtualMachineResult>("getVirtualMachine");
export const getCluster = lookup<T.GetClusterArgs, T.GetClusterResult>("getCluster");
/** Storage tiers have a number and a description, no name: "3" or "Tier 3" is tier 3; `name` is the description. */
export const getStorageTier = lookup<T.GetStorageTierArgs, T.GetStorageTierResult>("getStorageTier");
/** Hardware resource groups (GPUs, PCI, USB): attach one with `new Device({ resourceGroup: g.uuid })`. */
export const getResourceGroup = lookup<T.GetResourceGroupArgs, T.GetResourceGroupResult>("getResourceGroup");
export const getVgpuDevice = lookup<T.GetVgpuDeviceArgs, T.GetVgpuDeviceResult>("getVgpuDevice");
/** Media files (ISOs, disk images) by name, for a drive's mediaSource. */
export const getMediaFile = lookup<T.GetMediaFileArgs, T.GetMediaFileResult>("getMediaFile");
export const getUser = lookup<T.GetUserArgs, T.GetUserResult>("getUser");
export const getNasVolume = lookup<T.GetNasVolumeArgs, T.GetNasVolumeResult>("getNasVolume");
/** One page of a NAS directory's entries (`limit`, `offset`), optionally only some extensions. */
export const getVolumeFiles = lookup<T.GetVolumeFilesArgs, T.GetVolumeFilesResult>("getVolumeFiles");
/** A file on a NAS volume by its path; `id` is the media file a cdrom drive takes as mediaSource. */
export const getMediaFileByPath = lookup<T.GetMediaFileByPathArgs, T.GetMediaFileByPathResult>("getMediaFileByPath");
export const getEventTypes = lookup<T.GetEventTypesArgs, T.GetEventTypesResult>("getEventTypes");
/** Rows of a table that has no resource of its own (clusters, certificates, licenses, logs ...), read-only. */
export const getTableRows = lookup<T.GetTableRowsArgs, T.GetTableRowsResult>("getTableRows");

/** The arguments of readTable: those of getTableRows, with `fields` also as one comma-separated string. */
export interface ReadTableArgs {
  table: string;
  fields?: string | string[];
  filter?: string;
  sort?: string;
  /** At most this many rows; without it, every row (getTableRows reads 100 unless told). */
  limit?: number;
}

/**
 * The older name of getTableRows, kept for the programs that call it: the same checks and the same request,
 * answering the rows themselves; without `limit` it reads every row.
 */
export async function readTable(args: ReadTableArgs): Promise<TableRow[]> {
  const fields = args.fields === undefined ? [] : [args.fields].flat().filter((field) => field !== "");
  const { rows } = await getTableRows({ ...args, fields, limit: args.limit ?? 0 });
  return rows as TableRow[];
}
export const readTableOutput = outputOf(readTable);

export type VnetResult = Awaited<ReturnType<typeof getVnet>>;
export type VmResult = Awaited<ReturnType<typeof getVirtualMachine>>;
export type ClusterResult = Awaited<ReturnType<typeof getCluster>>;
export type StorageTierResult = Awaited<ReturnType<typeof getStorageTier>>;
export type ResourceGroupResult = Awaited<ReturnType<typeof getResourceGroup>>;
export type VgpuDeviceResult = Awaited<ReturnType<typeof getVgpuDevice>>;
export type MediaFileResult = Awaited<ReturnType<typeof getMediaFile>>;

export const getVnetOutput = outputOf(getVnet);
export const getVirtualMachineOutput = outputOf(getVirtualMachine);
export const getClusterOutput = outputOf(getCluster);
export const getStorageTierOutput = outputOf(getStorageTier);
export const getResourceGroupOutput = outputOf(getResourceGroup);
export const getVgpuDeviceOutput = outputOf(getVgpuDevice);
export const getMediaFileOutput = outputOf(getMediaFile);
export const getUserOutput = outputOf(getUser);
export const getNasVolumeOutput = outputOf(getNasVolume);
export const getVolumeFilesOutput = outputOf(getVolumeFiles);
export const getMediaFileByPathOutput = outputOf(getMediaFileByPath);
export const getEventTypesOutput = outputOf(getEventTypes);
export const getTableRowsOutput = outputOf(getTableRows);
