/** The platform release the emulator answers in /version.json and the system row. */
export const API_VERSION_TEXT = "26.1.0";
