/** The system service: the system row and version, the dashboard's counts, the site's certificates and licenses. */
import type { Service } from "../../model/types";
import { certificatesTable } from "./certificates";
import { dashboardTable } from "./dashboard";
import { licensesTable } from "./licenses";
import { systemTable } from "./system";

export const systemService: Service = { tables: [systemTable, dashboardTable, certificatesTable, licensesTable] };
