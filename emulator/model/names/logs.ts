/** The logs service's table names, each written only here (test/emulator/tableNames.test.ts): `LOGS.logs`. */
import type { RowEvent } from "../events";
import { tableNames } from "../tableNames";

export const LOGS = tableNames("logs", "machine_logs");
/** What the bus tells of these tables: their rows' changes. */
export type LogsEvent = RowEvent<keyof typeof LOGS>;
declare module "../events" {
  interface ServiceEvents {
    logs: LogsEvent;
  }
}
