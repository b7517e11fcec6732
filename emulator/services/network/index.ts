/** The network service: virtual networks (`vnets`), their runtime (power, pending applies) and their actions. */
import type { Service } from "../../model/types";
import { vnetActionsTable, vnetsTable } from "./vnets";

export const networkService: Service = { tables: [vnetsTable, vnetActionsTable] };
