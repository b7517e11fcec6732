/** The names of the tags tables: the only place they are written (test/emulator/tableNames.test.ts). */
import type { RowEvent } from "../../model/events";

export const TAG_CATEGORIES = "tag_categories";
export const TAGS = "tags";
export const TAG_MEMBERS = "tag_members";

export type TagsTable = typeof TAG_CATEGORIES | typeof TAGS | typeof TAG_MEMBERS;

export type TagsEvent = RowEvent<TagsTable>;
