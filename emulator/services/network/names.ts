/** The names of the virtual networks tables: the only place they are written (test/emulator/tableNames.test.ts). */
import type { RowEvent } from "../../model/events";

export const VNETS = "vnets";
export const VNET_ACTIONS = "vnet_actions";

export type NetworkTable = typeof VNETS | typeof VNET_ACTIONS;

export type NetworkEvent = RowEvent<NetworkTable>;
