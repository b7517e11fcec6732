import type { ApiClient, ListQuery } from "./api-client";
import { quoteLiteral } from "./query-string";
import type { Row } from "./row";
import { CLUSTER_TABLE, FILE_TABLE, VM_TABLE, VNET_TABLE } from "../schemas/tables";

export { quoteLiteral } from "./query-string";

export type { Row };

/** A look-up by name that found no row, or more than one. */
export class LookupError extends Error {
  override name = "LookupError";
  constructor(
    readonly kind: "none" | "ambiguous",
    readonly what: string,
    readonly lookedFor: string,
    message: string,
  ) {
    super(message);
  }
}

export interface NamedLookup {
  table: string;
  /** What the row is, in error messages: "no vnet named 'x'". */
  what: string;
  /** The filter that selects rows with this name. */
  filterFor: (name: string) => string;
}

/** What a look-up reads rows with: the API client, or a session of the reconciler. */
export interface RowLister {
  list(table: string, query?: ListQuery): Promise<Row[]>;
}

/** The one row `lookup` selects for `name`: two rows are asked for, to tell a unique match from an ambiguous one. */
export async function findOne<T = Row>(client: RowLister, lookup: NamedLookup, name: string, fields?: string): Promise<T> {
  const rows = (await client.list(lookup.table, { filter: lookup.filterFor(name), fields, limit: 2 })) as T[];
  if (rows.length === 0) throw new LookupError("none", lookup.what, name, `no ${lookup.what} named '${name}'`);
  if (rows.length > 1) throw new LookupError("ambiguous", lookup.what, name, `more than one ${lookup.what} named '${name}'`);
  return rows[0];
}

const byName = (table: string, what: string, extraFilter?: string): NamedLookup => ({
  table,
  what,
  filterFor: (name) => [`name eq ${quoteLiteral(name)}`, extraFilter].filter(Boolean).join(" and "),
});

/**
 * Storage tiers have a number and a description, no name: "3" and "Tier 3" mean
 * tier 3, anything else is matched against the description.
 */
export const storageTierFilter = (name: string): string => {
  const tier = /^\s*(?:tier\s*)?(\d+)\s*$/i.exec(name);
  return tier ? `tier eq ${Number(tier[1])}` : `description eq ${quoteLiteral(name)}`;
};

export const LOOKUPS = {
  vnet: byName(VNET_TABLE, "vnet"),
  /** Snapshots are VMs too; a name means the VM itself. */
  vm: byName(VM_TABLE, "VM", "is_snapshot eq false"),
  cluster: byName(CLUSTER_TABLE, "cluster"),
  storageTier: { table: "storage_tiers", what: "storage tier", filterFor: storageTierFilter },
  resourceGroup: byName("resource_groups", "resource group"),
  vgpuDevice: byName("node_nvidia_vgpu_devices", "vGPU device"),
  mediaFile: byName(FILE_TABLE, "media file"),
} satisfies Record<string, NamedLookup>;

const finder =
  (lookup: NamedLookup) =>
  <T = Row>(client: ApiClient, name: string, fields?: string): Promise<T> =>
    findOne<T>(client, lookup, name, fields);

export const findVnetByName = finder(LOOKUPS.vnet);
export const findVmByName = finder(LOOKUPS.vm);
export const findClusterByName = finder(LOOKUPS.cluster);
export const findStorageTierByName = finder(LOOKUPS.storageTier);
export const findResourceGroupByName = finder(LOOKUPS.resourceGroup);
export const findVgpuDeviceByName = finder(LOOKUPS.vgpuDevice);
export const findMediaFileByName = finder(LOOKUPS.mediaFile);
