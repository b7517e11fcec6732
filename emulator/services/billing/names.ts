/** The names of the bills tables: the only place they are written (test/emulator/tableNames.test.ts). */
import type { RowEvent } from "../../model/events";

export const BILLING = "billing";
export const BILLING_ACTIONS = "billing_actions";

export type BillingTable = typeof BILLING | typeof BILLING_ACTIONS;

export type BillingEvent = RowEvent<BillingTable>;
