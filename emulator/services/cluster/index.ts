/** The cluster service: clusters with their status and actions, the nodes, the storage tiers and each cluster's view of them, and the devices the nodes offer. */
import type { Service } from "../../model/types";
import { clusterActionsTable, clustersTable, clusterStatusTable } from "./clusters";
import { resourceGroupsTable, vgpuDevicesTable } from "./devices";
import { nodesTable } from "./nodes";
import { clusterTierStatusTable, clusterTiersTable, storageTiersTable } from "./storage";

export const clusterService: Service = {
  tables: [
    clustersTable,
    clusterStatusTable,
    nodesTable,
    clusterActionsTable,
    storageTiersTable,
    clusterTiersTable,
    clusterTierStatusTable,
    resourceGroupsTable,
    vgpuDevicesTable,
  ],
};
