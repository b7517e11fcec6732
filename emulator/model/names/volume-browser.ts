/** The volume browser service's table names, each written only here (test/emulator/tableNames.test.ts): `VOLUME_BROWSER.vm_services`. */
import type { RowEvent } from "../events";
import { tableNames } from "../tableNames";

export const VOLUME_BROWSER = tableNames("vm_services", "volumes", "volume_browser");
/** What the bus tells of these tables: their rows' changes. */
export type VolumeBrowserEvent = RowEvent<keyof typeof VOLUME_BROWSER>;
declare module "../events" {
  interface ServiceEvents {
    volumeBrowser: VolumeBrowserEvent;
  }
}
