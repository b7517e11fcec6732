/** The system service's table names, each written only here (test/emulator/tableNames.test.ts): `SYSTEM.system`. */
import type { RowEvent } from "../events";
import { tableNames } from "../tableNames";

export const SYSTEM = tableNames("system", "dashboard", "certificates", "licenses");
/** What the bus tells of these tables: their rows' changes. */
export type SystemEvent = RowEvent<keyof typeof SYSTEM>;
declare module "../events" {
  interface ServiceEvents {
    system: SystemEvent;
  }
}
