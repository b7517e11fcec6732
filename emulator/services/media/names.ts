/** The names of the media files and the clone-ISO builder tables: the only place they are written (test/emulator/tableNames.test.ts). */
import type { RowEvent } from "../../model/events";

export const FILES = "files";
export const FILE_ACTIONS = "file_actions";
export const CLONE_ISO = "clone_iso";
export const CLONE_ISO_ACTIONS = "clone_iso_actions";

export type MediaTable = typeof FILES | typeof FILE_ACTIONS | typeof CLONE_ISO | typeof CLONE_ISO_ACTIONS;

export type MediaEvent = RowEvent<MediaTable>;
