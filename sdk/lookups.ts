import * as pulumi from "@pulumi/pulumi";
import type { DeepInput } from "./types";
import {
  getTableRows,
  type getCluster,
  type getMediaFile,
  type getResourceGroup,
  type getStorageTier,
  type getVgpuDevice,
  type getVirtualMachine,
  type getVnet,
} from "./lookups.generated";

// Every declared look-up and its Output twin, generated from provider/resources/lookupFunctions.ts.
export * from "./lookups.generated";

/** A row as the API returns it (the public declarations import nothing of provider/). */
export type TableRow = { [column: string]: unknown };

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
/** readTable taking outputs of other resources: it runs once they are known. */
export const readTableOutput = (args: DeepInput<ReadTableArgs>): pulumi.Output<TableRow[]> =>
  pulumi.output(args).apply((a) => readTable(a as ReadTableArgs));

export type VnetResult = Awaited<ReturnType<typeof getVnet>>;
export type VmResult = Awaited<ReturnType<typeof getVirtualMachine>>;
export type ClusterResult = Awaited<ReturnType<typeof getCluster>>;
export type StorageTierResult = Awaited<ReturnType<typeof getStorageTier>>;
export type ResourceGroupResult = Awaited<ReturnType<typeof getResourceGroup>>;
export type VgpuDeviceResult = Awaited<ReturnType<typeof getVgpuDevice>>;
export type MediaFileResult = Awaited<ReturnType<typeof getMediaFile>>;
