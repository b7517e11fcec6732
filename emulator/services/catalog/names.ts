/** The catalog service's table names, each written only here (test/emulator/tableNames.test.ts): `CATALOG.catalog_repositories`. */
import type { RowEvent } from "../../model/events";
import { tableNames } from "../../model/tableNames";

export const CATALOG = tableNames("catalog_repositories", "catalog_repository_actions", "catalogs");
/** What the bus tells of these tables: their rows' changes. */
export type CatalogEvent = RowEvent<keyof typeof CATALOG>;
declare module "../../model/events" {
  interface ServiceEvents {
    catalog: CatalogEvent;
  }
}
