/** The billing service: bills and the action that generates them. */
import type { Service } from "../../model/types";
import { billingActionsTable, billingTable } from "./billing";

export const billingService: Service = { tables: [billingTable, billingActionsTable] };
