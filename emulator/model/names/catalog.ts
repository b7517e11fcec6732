/** The catalog service's table names, each written only here (test/emulator/tableNames.test.ts): `CATALOG.catalog_repositories`. */
import type { RowEvent } from "../events";
import { tableNames } from "../tableNames";

export const CATALOG = tableNames("catalog_repositories", "catalog_repository_actions", "catalogs");
/** What the bus tells of these tables: their rows' changes. */
export type CatalogEvent = RowEvent<keyof typeof CATALOG>;
declare module "../events" {
  interface ServiceEvents {
    catalog: CatalogEvent;
  }
}
