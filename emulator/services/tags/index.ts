/** The tags service: tag categories, tags and the rows they tag. */
import type { Service } from "../../model/types";
import { tagCategoriesTable, tagMembersTable, tagsTable } from "./tags";

export const tagsService: Service = { tables: [tagCategoriesTable, tagsTable, tagMembersTable] };
