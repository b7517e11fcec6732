/** The cluster service's table names, each written only here (test/emulator/tableNames.test.ts): `CLUSTER.clusters`. */
import type { RowEvent } from "../events";
import { tableNames } from "../tableNames";

export const CLUSTER = tableNames(
  "clusters",
  "cluster_status",
  "cluster_actions",
  "nodes",
  "storage_tiers",
  "cluster_tiers",
  "cluster_tier_status",
  "resource_groups",
  "node_nvidia_vgpu_devices",
);
/** What the bus tells of these tables: their rows' changes. */
export type ClusterEvent = RowEvent<keyof typeof CLUSTER>;
declare module "../events" {
  interface ServiceEvents {
    cluster: ClusterEvent;
  }
}
