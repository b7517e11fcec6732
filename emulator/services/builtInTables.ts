/** Every built-in table, in registration order (feature modules add theirs through registerFeature). */
import { apiKeysTable } from "./identity/apiKeys";
import { usersTable } from "./identity/users";
import { devicesTable, deviceStatusTable, drivesTable, driveStatusTable, nicsTable, nicStatusTable } from "./compute/hardware";
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
} from "./cluster/clusters";
import { authSourcesTable } from "./identity/authSources";
import { certificatesTable } from "./system/certificates";
import { licensesTable } from "./system/licenses";
import { groupLogsTable, groupsTable, membersTable } from "./identity/groups";
import {
  machineStatsHistoryLongTable,
  machineStatsHistoryShortTable,
  machinesTable,
  machineStatsTable,
  machineStatusTable,
} from "./compute/machines";
import {
  billingActionsTable,
  billingTable,
  catalogRepositoriesTable,
  catalogRepositoryActionsTable,
  catalogsTable,
  cloneIsoActionsTable,
  cloneIsoTable,
} from "./billing/billing";
import { cloudinitFilesTable, noteActionsTable, tagCategoriesTable, tagMembersTable, tagsTable } from "./compute/owned";
import { permissionsTable } from "./identity/permissions";
import { snapshotsTable } from "./compute/snapshots";
import type { TableDef } from "../model/types";
import { vmActionsTable } from "./compute/vmActions";
import { vmsTable } from "./compute/vms";
import { vnetActionsTable, vnetsTable } from "./network/vnets";

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
