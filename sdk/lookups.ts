import * as pulumi from "@pulumi/pulumi";
import { ApiClient } from "../provider/client/api-client";
import { LOOKUPS, NamedLookup, Row, findOne } from "../provider/client/lookups";
import { fieldMeta, type Shape } from "../provider/schemas/common";
import { virtualMachineShape } from "../provider/schemas/virtualMachine";
import { vnetShape } from "../provider/schemas/vnet";
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

/** One result field: the column it is read from and how its value is typed. */
interface Column<T> {
  api: string;
  read(value: unknown): T;
}
const text = (api: string): Column<string> => ({ api, read: str });
const count = (api: string): Column<number> => ({ api, read: Number });
const machine = (api: string): Column<MachineKey> => ({ api, read: (v) => machineKey(str(v)) });
/** A column a resource schema maps (its API name comes from the field's metadata). */
const mapped = (shape: Shape, field: string): Column<string> => text(fieldMeta(shape[field])!.api!);

type ResultOf<C> = { [K in keyof C]: C[K] extends Column<infer T> ? T : never };

/** The look-up of the one row with this name (none or several is an error that says what was searched), read as `columns` declare. */
function byName<C extends Record<string, Column<unknown>>>(lookup: NamedLookup, columns: C): (args: NameArgs) => Promise<ResultOf<C>> {
  const fields = Object.values(columns).map((c) => c.api).join(",");
  return async ({ name }) => {
    const row: Row = await findOne(apiClient(), lookup, name, fields);
    return Object.fromEntries(Object.entries(columns).map(([k, c]) => [k, c.read(row[c.api])])) as ResultOf<C>;
  };
}

export interface NameArgs {
  name: string;
}

export const getVnet = byName(LOOKUPS.vnet, { id: text("$key"), name: mapped(vnetShape, "name"), network: mapped(vnetShape, "network"), type: mapped(vnetShape, "type") });
export const getVirtualMachine = byName(LOOKUPS.vm, { id: text("$key"), name: mapped(virtualMachineShape, "name"), machineKey: machine("machine"), cluster: mapped(virtualMachineShape, "cluster") });
export const getCluster = byName(LOOKUPS.cluster, { id: text("$key"), name: text("name") });
/** Storage tiers have a number and a description, no name: "3" or "Tier 3" is tier 3; `name` is the description. */
export const getStorageTier = byName(LOOKUPS.storageTier, { id: text("$key"), name: text("description"), tier: count("tier") });
/** Hardware resource groups (GPUs, PCI, USB): attach one with `new Device({ resourceGroup: g.uuid })`. */
export const getResourceGroup = byName(LOOKUPS.resourceGroup, { uuid: text("uuid"), name: text("name"), type: text("type"), id: text("$key") });
export const getVgpuDevice = byName(LOOKUPS.vgpuDevice, { id: text("$key"), name: text("name") });
/** Media files (ISOs, disk images) by name, for a drive's mediaSource. */
export const getMediaFile = byName(LOOKUPS.mediaFile, { id: text("$key"), name: text("name"), type: text("type"), filesize: count("filesize") });

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
