/** The network service's table names, each written only here (test/emulator/tableNames.test.ts): `NETWORK.vnets`. */
import type { RowEvent } from "../events";
import { tableNames } from "../tableNames";

export const NETWORK = tableNames("vnets", "vnet_actions");
/** What the bus tells of these tables: their rows' changes. */
export type NetworkEvent = RowEvent<keyof typeof NETWORK>;
declare module "../events" {
  interface ServiceEvents {
    network: NetworkEvent;
  }
}
