import type { ApiClient } from "../client/api-client";
import { LOOKUPS, NamedLookup, Row, findOne } from "../client/lookups";
import { str } from "../reconcile/platform";

interface LookupOutput {
  type: "string" | "integer";
  /** The column it is read from. */
  column: string;
  description: string;
}

/**
 * The look-ups by name (`getVnet`, ...): one definition for the SDK's
 * functions, schema.json's functions and the plugin's invoke.
 */
export interface LookupFunction {
  /** `getVnet`: the function's name in the SDK and the last part of its token. */
  name: string;
  description: string;
  lookup: NamedLookup;
  outputs: Record<string, LookupOutput>;
}

const out = (type: LookupOutput["type"], column: string, description: string): LookupOutput => ({ type, column, description });
const id = out("string", "$key", "Row key");
const name = out("string", "name", "Name");

export const LOOKUP_FUNCTIONS: LookupFunction[] = [
  {
    name: "getVnet",
    description: "The virtual network with this name.",
    lookup: LOOKUPS.vnet,
    outputs: { id, name, network: out("string", "network", "Network address (CIDR)"), type: out("string", "type", "Network type") },
  },
  {
    name: "getVirtualMachine",
    description: "The VM (not a snapshot) with this name.",
    lookup: LOOKUPS.vm,
    outputs: { id, name, machineKey: out("string", "machine", "Machine key: what drives, NICs and devices attach to"), cluster: out("string", "cluster", "Cluster key") },
  },
  { name: "getCluster", description: "The cluster with this name.", lookup: LOOKUPS.cluster, outputs: { id, name } },
  {
    name: "getStorageTier",
    description: 'The storage tier "3", "Tier 3" or with this description (tiers have a number, no name).',
    lookup: LOOKUPS.storageTier,
    outputs: { id, name: out("string", "description", "Description of the tier"), tier: out("integer", "tier", "Tier number") },
  },
  {
    name: "getResourceGroup",
    description: "The hardware resource group (GPUs, PCI, USB) with this name: attach one with a Device whose resourceGroup is its uuid.",
    lookup: LOOKUPS.resourceGroup,
    outputs: { uuid: out("string", "uuid", "UUID, for a Device's resourceGroup"), name, type: out("string", "type", "Device type"), id },
  },
  { name: "getVgpuDevice", description: "The NVIDIA vGPU device with this name.", lookup: LOOKUPS.vgpuDevice, outputs: { id, name } },
  {
    name: "getMediaFile",
    description: "The media file (ISO, disk image) with this name, for a drive's mediaSource.",
    lookup: LOOKUPS.mediaFile,
    outputs: { id, name, type: out("string", "type", "File type"), filesize: out("integer", "filesize", "Size in bytes") },
  },
];

/** The one row with this name, as the function's outputs (none or several is an error naming what was searched). */
export async function runLookup(fn: LookupFunction, client: ApiClient, lookupName: string): Promise<Row> {
  const outputs = Object.entries(fn.outputs);
  const row = await findOne<Row>(client, fn.lookup, lookupName, [...new Set(outputs.map(([, o]) => o.column))].join(","));
  return Object.fromEntries(outputs.map(([k, o]) => [k, o.type === "integer" ? Number(row[o.column]) : str(row[o.column])]));
}
