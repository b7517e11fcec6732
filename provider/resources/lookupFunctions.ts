import type { ApiClient } from "../client/api-client";
import { LOOKUPS, type NamedLookup, type Row, findOne } from "../client/lookups";
import { str } from "../reconcile/platform";
import { fieldMeta, type Shape } from "../schemas/common";
import { type OutputDecl, output } from "../schemas/outputs";
import { virtualMachineShape } from "../schemas/virtualMachine";
import { vnetShape } from "../schemas/vnet";

/** A result field: declared as a resource's computed output is, plus the column it is read from. */
export type LookupOutput<T extends "string" | "integer" = "string" | "integer"> = OutputDecl<T> & { column: string };

/**
 * A look-up by name (`getVnet`, ...): the one declaration of the SDK's functions
 * (and their result types, generated into sdk/schemaTypes.generated.ts),
 * schema.json's functions and the plugin's invoke.
 */
export interface LookupFunction {
  /** `getVnet`: the function's name in the SDK and the last part of its token. */
  name: string;
  description: string;
  lookup: NamedLookup;
  outputs: Record<string, LookupOutput>;
}

const out = <T extends "string" | "integer">(type: T, column: string, description: string): LookupOutput<T> => ({
  ...output(type, description),
  column,
});
/** An output read from the column a resource schema maps `field` to. */
const mapped = (shape: Shape, field: string, description: string) => out("string", fieldMeta(shape[field])!.api!, description);
const id = out("string", "$key", "Row key");
const name = out("string", "name", "Name");

const FUNCTIONS = {
  getVnet: {
    description: "The virtual network with this name.",
    lookup: LOOKUPS.vnet,
    outputs: {
      id,
      name: mapped(vnetShape, "name", "Name"),
      network: mapped(vnetShape, "network", "Network address (CIDR)"),
      type: mapped(vnetShape, "type", "Network type"),
    },
  },
  getVirtualMachine: {
    description: "The VM (not a snapshot) with this name.",
    lookup: LOOKUPS.vm,
    outputs: {
      id,
      name: mapped(virtualMachineShape, "name", "Name"),
      machineKey: out("string", "machine", "Machine key: what drives, NICs and devices attach to"),
      cluster: mapped(virtualMachineShape, "cluster", "Cluster key"),
    },
  },
  getCluster: { description: "The cluster with this name.", lookup: LOOKUPS.cluster, outputs: { id, name } },
  getStorageTier: {
    description: 'The storage tier "3", "Tier 3" or with this description (tiers have a number, no name).',
    lookup: LOOKUPS.storageTier,
    outputs: { id, name: out("string", "description", "Description of the tier"), tier: out("integer", "tier", "Tier number") },
  },
  getResourceGroup: {
    description: "The hardware resource group (GPUs, PCI, USB) with this name: attach one with a Device whose resourceGroup is its uuid.",
    lookup: LOOKUPS.resourceGroup,
    outputs: { uuid: out("string", "uuid", "UUID, for a Device's resourceGroup"), name, type: out("string", "type", "Device type"), id },
  },
  getVgpuDevice: { description: "The NVIDIA vGPU device with this name.", lookup: LOOKUPS.vgpuDevice, outputs: { id, name } },
  getMediaFile: {
    description: "The media file (ISO, disk image) with this name, for a drive's mediaSource.",
    lookup: LOOKUPS.mediaFile,
    outputs: { id, name, type: out("string", "type", "File type"), filesize: out("integer", "filesize", "Size in bytes") },
  },
} satisfies Record<string, Omit<LookupFunction, "name">>;

export type LookupName = keyof typeof FUNCTIONS;

/** The declared outputs of each look-up, by name (for types derived from them). */
export type LookupOutputsOf = { [N in LookupName]: (typeof FUNCTIONS)[N]["outputs"] };

export const LOOKUP_FUNCTIONS: LookupFunction[] = Object.entries(FUNCTIONS).map(([fnName, fn]) => ({ name: fnName, ...fn }));

/** The one row with this name, as the function's outputs (none or several is an error naming what was searched). */
export async function runLookup(fn: LookupFunction, client: ApiClient, lookupName: string): Promise<Row> {
  const outputs = Object.entries(fn.outputs);
  const row = await findOne<Row>(client, fn.lookup, lookupName, [...new Set(outputs.map(([, o]) => o.column))].join(","));
  return Object.fromEntries(outputs.map(([k, o]) => [k, o.type === "integer" ? Number(row[o.column]) : str(row[o.column])]));
}
