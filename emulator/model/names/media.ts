/** The media service's table names, each written only here (test/emulator/tableNames.test.ts): `MEDIA.files`. */
import type { RowEvent } from "../events";
import { tableNames } from "../tableNames";

export const MEDIA = tableNames("files", "file_actions", "clone_iso", "clone_iso_actions");
/** What the bus tells of these tables: their rows' changes. */
export type MediaEvent = RowEvent<keyof typeof MEDIA>;
declare module "../events" {
  interface ServiceEvents {
    media: MediaEvent;
  }
}
