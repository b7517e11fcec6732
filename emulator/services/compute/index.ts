/**
 * The compute service: a VM in one place — its settings (`vms`), its actions and power, the machine it runs as
 * with its status and usage, its drives, NICs and devices, its snapshots, cloud-init files and note — and the
 * capacity machines take of the nodes and storage tiers. Vnets and nodes run as machines too (createMachineFor).
 */
import type { Service } from "../../model/types";
import { devicesTable, deviceStatusTable, drivesTable, driveStatusTable, nicsTable, nicStatusTable } from "./hardware";
import {
  machineStatsHistoryLongTable,
  machineStatsHistoryShortTable,
  machinesTable,
  machineStatsTable,
  machineStatusTable,
} from "./machines";
import { cloudinitFilesTable, noteActionsTable } from "./owned";
import { snapshotsTable } from "./snapshots";
import { vmActionsTable } from "./vmActions";
import { vmsTable } from "./vms";

export const computeService: Service = {
  tables: [
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
  ],
};
