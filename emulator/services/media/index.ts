/** The media service: stored files (ISO and disk images) with their actions, and the clone-ISO builder. */
import type { Service } from "../../model/types";
import { cloneIsoActionsTable, cloneIsoTable } from "./cloneIso";
import { fileActionsTable, filesTable } from "./files";

export const mediaService: Service = { tables: [filesTable, fileActionsTable, cloneIsoTable, cloneIsoActionsTable] };
