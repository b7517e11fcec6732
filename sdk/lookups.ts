import * as pulumi from "@pulumi/pulumi";
import { ApiClient } from "../provider/client/api-client";
import { resolveProviderConfig } from "../provider/config/provider-config";
import { LOOKUP_FUNCTIONS, type LookupName, runLookup } from "../provider/resources/lookupFunctions";
import type * as T from "./schemaTypes.generated";
import type { Computed, DeepInput } from "./types";

/** A row as the API returns it (the public declarations import nothing of provider/). */
export type TableRow = { [column: string]: unknown };

/**
 * Look-ups run in the program process (not the provider process), so they get
 * their own ApiClient, configured from the program's stack config (raw values:
 * no secret warnings, nothing captured) with the usual env fallbacks.
 */
let client: ApiClient | undefined;
function apiClient(): ApiClient {
  client ??= new ApiClient(resolveProviderConfig((key) => pulumi.runtime.getConfig(key), process.env));
  return client;
}

export interface ReadTableArgs {
  table: string;
  fields?: string | string[];
  filter?: string;
  sort?: string;
  limit?: number;
}

/** Any table, with the API's query options (fields, OData-like filter, +/- sort, limit). */
export function readTable(args: ReadTableArgs): Promise<TableRow[]> {
  const fields = Array.isArray(args.fields) ? args.fields.join(",") : args.fields;
  return apiClient().list(args.table, { fields, filter: args.filter, sort: args.sort, limit: args.limit });
}

export function readTableOutput(args: DeepInput<ReadTableArgs>): pulumi.Output<TableRow[]> {
  return pulumi.output(args).apply((a) => readTable(a as ReadTableArgs));
}

export interface NameArgs {
  name: string;
}

/** The look-up `fn` (provider/resources/lookupFunctions declares each and its outputs), typed as generated from that declaration. */
function byName<R>(fn: LookupName): (args: NameArgs) => Promise<Computed<R>> {
  const declared = LOOKUP_FUNCTIONS.find((f) => f.name === fn)!;
  return async ({ name }) => (await runLookup(declared, apiClient(), name)) as Computed<R>;
}

export const getVnet = byName<T.GetVnetResult>("getVnet");
export const getVirtualMachine = byName<T.GetVirtualMachineResult>("getVirtualMachine");
export const getCluster = byName<T.GetClusterResult>("getCluster");
/** Storage tiers have a number and a description, no name: "3" or "Tier 3" is tier 3; `name` is the description. */
export const getStorageTier = byName<T.GetStorageTierResult>("getStorageTier");
/** Hardware resource groups (GPUs, PCI, USB): attach one with `new Device({ resourceGroup: g.uuid })`. */
export const getResourceGroup = byName<T.GetResourceGroupResult>("getResourceGroup");
export const getVgpuDevice = byName<T.GetVgpuDeviceResult>("getVgpuDevice");
/** Media files (ISOs, disk images) by name, for a drive's mediaSource. */
export const getMediaFile = byName<T.GetMediaFileResult>("getMediaFile");

export type VnetResult = Awaited<ReturnType<typeof getVnet>>;
export type VmResult = Awaited<ReturnType<typeof getVirtualMachine>>;
export type ClusterResult = Awaited<ReturnType<typeof getCluster>>;
export type StorageTierResult = Awaited<ReturnType<typeof getStorageTier>>;
export type ResourceGroupResult = Awaited<ReturnType<typeof getResourceGroup>>;
export type VgpuDeviceResult = Awaited<ReturnType<typeof getVgpuDevice>>;
export type MediaFileResult = Awaited<ReturnType<typeof getMediaFile>>;

const outputOf =
  <R>(lookup: (a: NameArgs) => Promise<R>) =>
  (args: DeepInput<NameArgs>): pulumi.Output<R> =>
    pulumi.output(args).apply((a) => lookup(a as NameArgs)) as pulumi.Output<R>;

export const getVnetOutput = outputOf(getVnet);
export const getVirtualMachineOutput = outputOf(getVirtualMachine);
export const getClusterOutput = outputOf(getCluster);
export const getStorageTierOutput = outputOf(getStorageTier);
export const getResourceGroupOutput = outputOf(getResourceGroup);
export const getVgpuDeviceOutput = outputOf(getVgpuDevice);
export const getMediaFileOutput = outputOf(getMediaFile);
