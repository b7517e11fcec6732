/** The names of the clusters, nodes, storage tiers and node devices tables: the only place they are written (test/emulator/tableNames.test.ts). */
import type { RowEvent } from "../../model/events";

export const CLUSTERS = "clusters";
export const CLUSTER_STATUS = "cluster_status";
export const CLUSTER_ACTIONS = "cluster_actions";
export const NODES = "nodes";
export const STORAGE_TIERS = "storage_tiers";
export const CLUSTER_TIERS = "cluster_tiers";
export const CLUSTER_TIER_STATUS = "cluster_tier_status";
export const RESOURCE_GROUPS = "resource_groups";
export const NODE_NVIDIA_VGPU_DEVICES = "node_nvidia_vgpu_devices";

export type ClusterTable =
  | typeof CLUSTERS
  | typeof CLUSTER_STATUS
  | typeof CLUSTER_ACTIONS
  | typeof NODES
  | typeof STORAGE_TIERS
  | typeof CLUSTER_TIERS
  | typeof CLUSTER_TIER_STATUS
  | typeof RESOURCE_GROUPS
  | typeof NODE_NVIDIA_VGPU_DEVICES;

export type ClusterEvent = RowEvent<ClusterTable>;
