/** The names of the catalog repositories and catalogs tables: the only place they are written (test/emulator/tableNames.test.ts). */
import type { RowEvent } from "../../model/events";

export const CATALOG_REPOSITORIES = "catalog_repositories";
export const CATALOG_REPOSITORY_ACTIONS = "catalog_repository_actions";
export const CATALOGS = "catalogs";

export type CatalogTable = typeof CATALOG_REPOSITORIES | typeof CATALOG_REPOSITORY_ACTIONS | typeof CATALOGS;

export type CatalogEvent = RowEvent<CatalogTable>;
