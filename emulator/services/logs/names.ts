/** The names of the the logs tables: the only place they are written (test/emulator/tableNames.test.ts). */
import type { RowEvent } from "../../model/events";

export const LOGS = "logs";
export const MACHINE_LOGS = "machine_logs";

export type LogsTable = typeof LOGS | typeof MACHINE_LOGS;

export type LogsEvent = RowEvent<LogsTable>;
