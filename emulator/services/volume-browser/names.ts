/** The names of the the NAS volume browser tables: the only place they are written (test/emulator/tableNames.test.ts). */
import type { RowEvent } from "../../model/events";

export const VM_SERVICES = "vm_services";
export const VOLUMES = "volumes";
export const VOLUME_BROWSER = "volume_browser";

export type VolumeBrowserTable = typeof VM_SERVICES | typeof VOLUMES | typeof VOLUME_BROWSER;

export type VolumeBrowserEvent = RowEvent<VolumeBrowserTable>;
