/** The logs service's table names, each written only here (test/emulator/tableNames.test.ts): `LOGS.logs`. */
import type { RowEvent } from "../../model/events";
import { tableNames } from "../../model/tableNames";

export const LOGS = tableNames("logs", "machine_logs");
/** What the bus tells of these tables: their rows' changes. */
export type LogsEvent = RowEvent<keyof typeof LOGS>;
declare module "../../model/events" {
  interface ServiceEvents {
    logs: LogsEvent;
  }
}
