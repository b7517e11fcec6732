/** The identity service's table names, each written only here (test/emulator/tableNames.test.ts): `IDENTITY.users`. */
import type { RowEvent } from "../events";
import { tableNames } from "../tableNames";

export const IDENTITY = tableNames("users", "user_api_keys", "auth_sources", "groups", "members", "group_logs", "permissions");
/** What the bus tells of these tables: their rows' changes. */
export type IdentityEvent = RowEvent<keyof typeof IDENTITY>;
declare module "../events" {
  interface ServiceEvents {
    identity: IdentityEvent;
  }
}
