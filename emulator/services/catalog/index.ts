/** The catalog service: catalog repositories, their refresh action, and the catalogs they publish. */
import type { Service } from "../../model/types";
import { catalogRepositoriesTable, catalogRepositoryActionsTable, catalogsTable } from "./catalogs";

export const catalogService: Service = { tables: [catalogRepositoriesTable, catalogRepositoryActionsTable, catalogsTable] };
