/** The tags service's table names, each written only here (test/emulator/tableNames.test.ts): `TAGS.tag_categories`. */
import type { RowEvent } from "../events";
import { tableNames } from "../tableNames";

export const TAGS = tableNames("tag_categories", "tags", "tag_members");
/** What the bus tells of these tables: their rows' changes. */
export type TagsEvent = RowEvent<keyof typeof TAGS>;
declare module "../events" {
  interface ServiceEvents {
    tags: TagsEvent;
  }
}
