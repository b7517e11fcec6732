/** The names of the the system row and version, the dashboard, certificates, licenses tables: the only place they are written (test/emulator/tableNames.test.ts). */
import type { RowEvent } from "../../model/events";

export const SYSTEM = "system";
export const DASHBOARD = "dashboard";
export const CERTIFICATES = "certificates";
export const LICENSES = "licenses";

export type SystemTable = typeof SYSTEM | typeof DASHBOARD | typeof CERTIFICATES | typeof LICENSES;

export type SystemEvent = RowEvent<SystemTable>;
