/** The billing service's table names, each written only here (test/emulator/tableNames.test.ts): `BILLING.billing`. */
import type { RowEvent } from "../events";
import { tableNames } from "../tableNames";

export const BILLING = tableNames("billing", "billing_actions");
/** What the bus tells of these tables: their rows' changes. */
export type BillingEvent = RowEvent<keyof typeof BILLING>;
declare module "../events" {
  interface ServiceEvents {
    billing: BillingEvent;
  }
}
