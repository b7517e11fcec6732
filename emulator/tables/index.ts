/** Every built-in table, in registration order (feature modules add theirs through registerFeature). */
import { apiKeysTable } from "../auth/apiKeys";
import { usersTable } from "../auth/users";
import { devicesTable, deviceStatusTable, drivesTable, driveStatusTable, nicsTable, nicStatusTable } from "./hardware";
import {
  clusterActionsTable,
  clustersTable,
  clusterStatusTable,
  clusterTierStatusTable,
  clusterTiersTable,
  dashboardTable,
  fileActionsTable,
  filesTable,
  nodesTable,
  resourceGroupsTable,
  storageTiersTable,
  systemTable,
  vgpuDevicesTable,
} from "./infrastructure";
import { authSourcesTable } from "./authSources";
import { certificatesTable } from "./certificates";
import { licensesTable } from "./licenses";
import { groupLogsTable, groupsTable, membersTable } from "./groups";
import {
  machineStatsHistoryLongTable,
  machineStatsHistoryShortTable,
  machinesTable,
  machineStatsTable,
  machineStatusTable,
} from "./machines";
import {
  billingActionsTable,
  billingTable,
  catalogRepositoriesTable,
  catalogRepositoryActionsTable,
  catalogsTable,
  cloneIsoActionsTable,
  cloneIsoTable,
} from "./operations";
import { cloudinitFilesTable, noteActionsTable, tagCategoriesTable, tagMembersTable, tagsTable } from "./owned";
import { permissionsTable } from "./permissions";
import { snapshotsTable } from "./snapshots";
import type { TableDef } from "./types";
import { vmActionsTable } from "./vmActions";
import { vmsTable } from "./vms";
import { vnetActionsTable, vnetsTable } from "./vnets";

export const builtInTables: TableDef[] = [
  systemTable,
  usersTable,
  apiKeysTable,
  authSourcesTable,
  groupsTable,
  membersTable,
  groupLogsTable,
  permissionsTable,
  clustersTable,
  clusterStatusTable,
  nodesTable,
  clusterActionsTable,
  dashboardTable,
  storageTiersTable,
  clusterTiersTable,
  clusterTierStatusTable,
  resourceGroupsTable,
  vgpuDevicesTable,
  filesTable,
  fileActionsTable,
  vnetsTable,
  vnetActionsTable,
  vmsTable,
  machinesTable,
  machineStatusTable,
  machineStatsTable,
  machineStatsHistoryShortTable,
  machineStatsHistoryLongTable,
  vmActionsTable,
  drivesTable,
  driveStatusTable,
  nicsTable,
  nicStatusTable,
  devicesTable,
  deviceStatusTable,
  snapshotsTable,
  cloudinitFilesTable,
  noteActionsTable,
  tagCategoriesTable,
  tagsTable,
  tagMembersTable,
  billingTable,
  billingActionsTable,
  catalogRepositoriesTable,
  catalogRepositoryActionsTable,
  catalogsTable,
  cloneIsoTable,
  cloneIsoActionsTable,
  certificatesTable,
  licensesTable,
];
