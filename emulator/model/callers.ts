/**
 * The callers of the emulator's own writes (seeds, start-up keys), never a request's: the engine runs a seed's
 * rows through the same rules as a request's, with one of these as the caller.
 */
import type { Caller } from "./types";

/** The emulator itself: what it makes carries `system` as its creator. */
export const SYSTEM_CALLER: Caller = { user: "system", role: "admin", ip: "127.0.0.1" };

/** The admin user, for rows seeded in its name (the External vnet's creator is `admin`). */
export const ADMIN_CALLER: Caller = { user: "admin", role: "admin", ip: "127.0.0.1" };
