/** The network service's table names, each written only here (test/emulator/tableNames.test.ts): `NETWORK.vnets`. */
import type { RowEvent } from "../../model/events";
import { tableNames } from "../../model/tableNames";

export const NETWORK = tableNames("vnets", "vnet_actions");
/** What the bus tells of these tables: their rows' changes. */
export type NetworkEvent = RowEvent<keyof typeof NETWORK>;
declare module "../../model/events" {
  interface ServiceEvents {
    network: NetworkEvent;
  }
}
