import * as pulumi from "@pulumi/pulumi";
import { ApiClient } from "../provider/client/api-client";
import { LOOKUPS, NamedLookup, Row, findOne } from "../provider/client/lookups";
import { resolveProviderConfig } from "../provider/config/provider-config";
import { str } from "../provider/reconcile/platform";
import { DeepInput, MachineKey, machineKey } from "./types";

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

/** The one row with this name; none or several is an error that says what was searched. */
const findByName = (lookup: NamedLookup, name: string, fields: string): Promise<Row> => findOne(apiClient(), lookup, name, fields);

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

export const getVnet = async ({ name }: NameArgs): Promise<VnetResult> => {
  const r = await findByName(LOOKUPS.vnet, name, "$key,name,network,type");
  return { id: str(r.$key), name: str(r.name), network: str(r.network), type: str(r.type) };
};
export const getVirtualMachine = async ({ name }: NameArgs): Promise<VmResult> => {
  const r = await findByName(LOOKUPS.vm, name, "$key,name,machine,cluster");
  return { id: str(r.$key), name: str(r.name), machineKey: machineKey(str(r.machine)), cluster: str(r.cluster) };
};
export const getCluster = async ({ name }: NameArgs): Promise<ClusterResult> => {
  const r = await findByName(LOOKUPS.cluster, name, "$key,name");
  return { id: str(r.$key), name: str(r.name) };
};
/** Storage tiers have a number and a description, no name: "3" or "Tier 3" is tier 3; `name` is the description. */
export const getStorageTier = async ({ name }: NameArgs): Promise<StorageTierResult> => {
  const r = await findByName(LOOKUPS.storageTier, name, "$key,tier,description");
  return { id: str(r.$key), name: str(r.description), tier: Number(r.tier) };
};
/** Hardware resource groups (GPUs, PCI, USB): attach one with `new Device({ resourceGroup: g.uuid })`. */
export const getResourceGroup = async ({ name }: NameArgs): Promise<ResourceGroupResult> => {
  const r = await findByName(LOOKUPS.resourceGroup, name, "$key,uuid,name,type");
  return { uuid: str(r.uuid), name: str(r.name), type: str(r.type), id: str(r.$key) };
};
export const getVgpuDevice = async ({ name }: NameArgs): Promise<VgpuDeviceResult> => {
  const r = await findByName(LOOKUPS.vgpuDevice, name, "$key,name");
  return { id: str(r.$key), name: str(r.name) };
};
/** Media files (ISOs, disk images) by name, for a drive's mediaSource. */
export const getMediaFile = async ({ name }: NameArgs): Promise<MediaFileResult> => {
  const r = await findByName(LOOKUPS.mediaFile, name, "$key,name,type,filesize");
  return { id: str(r.$key), name: str(r.name), type: str(r.type), filesize: Number(r.filesize) };
};

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
