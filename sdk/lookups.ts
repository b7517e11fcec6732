import * as pulumi from "@pulumi/pulumi";
import { ApiClient } from "../provider/client/api-client";
import { Row } from "../provider/client/lookups";
import { resolveProviderConfig } from "../provider/config/provider-config";
import { LOOKUP_FUNCTIONS, runLookup } from "../provider/resources/lookupFunctions";
import { DeepInput, MachineKey } from "./types";

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
export function readTable(args: ReadTableArgs): Promise<Row[]> {
  const fields = Array.isArray(args.fields) ? args.fields.join(",") : args.fields;
  return apiClient().list(args.table, { fields, filter: args.filter, sort: args.sort, limit: args.limit });
}

export function readTableOutput(args: DeepInput<ReadTableArgs>): pulumi.Output<Row[]> {
  return pulumi.output(args).apply((a) => readTable(a as ReadTableArgs));
}


export interface NameArgs {
  name: string;
}

export interface VnetResult { id: string; name: string; network: string; type: string }
export interface VmResult { id: string; name: string; machineKey: MachineKey; cluster: string }
export interface ClusterResult { id: string; name: string }
export interface StorageTierResult { id: string; name: string; tier: number }
export interface ResourceGroupResult { uuid: string; name: string; type: string; id: string }
export interface VgpuDeviceResult { id: string; name: string }
export interface MediaFileResult { id: string; name: string; type: string; filesize: number }

const lookupNamed = (fnName: string) => {
  const fn = LOOKUP_FUNCTIONS.find((f) => f.name === fnName);
  if (!fn) throw new Error(`vplatform: internal error: no look-up ${fnName}`);
  return fn;
};
/** The SDK function over the look-up of the same name (provider/resources/lookupFunctions: also schema.json's and the plugin's). */
const lookupFunction =
  <R>(fnName: string) =>
  ({ name }: NameArgs): Promise<R> =>
    runLookup(lookupNamed(fnName), apiClient(), name) as Promise<R>;

export const getVnet = lookupFunction<VnetResult>("getVnet");
export const getVirtualMachine = lookupFunction<VmResult>("getVirtualMachine");
export const getCluster = lookupFunction<ClusterResult>("getCluster");
/** Storage tiers have a number and a description, no name: "3" or "Tier 3" is tier 3; `name` is the description. */
export const getStorageTier = lookupFunction<StorageTierResult>("getStorageTier");
/** Hardware resource groups (GPUs, PCI, USB): attach one with `new Device({ resourceGroup: g.uuid })`. */
export const getResourceGroup = lookupFunction<ResourceGroupResult>("getResourceGroup");
export const getVgpuDevice = lookupFunction<VgpuDeviceResult>("getVgpuDevice");
/** Media files (ISOs, disk images) by name, for a drive's mediaSource. */
export const getMediaFile = lookupFunction<MediaFileResult>("getMediaFile");

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
