/** The system service's table names, each written only here (test/emulator/tableNames.test.ts): `SYSTEM.system`. */
import type { RowEvent } from "../../model/events";
import { tableNames } from "../../model/tableNames";

export const SYSTEM = tableNames("system", "dashboard", "certificates", "licenses");
/** What the bus tells of these tables: their rows' changes. */
export type SystemEvent = RowEvent<keyof typeof SYSTEM>;
declare module "../../model/events" {
  interface ServiceEvents {
    system: SystemEvent;
  }
}
