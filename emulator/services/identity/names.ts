/** The names of the users, API keys, authentication sources, groups, grants tables: the only place they are written (test/emulator/tableNames.test.ts). */
import type { RowEvent } from "../../model/events";

export const USERS = "users";
export const USER_API_KEYS = "user_api_keys";
export const AUTH_SOURCES = "auth_sources";
export const GROUPS = "groups";
export const MEMBERS = "members";
export const GROUP_LOGS = "group_logs";
export const PERMISSIONS = "permissions";

export type IdentityTable =
  | typeof USERS
  | typeof USER_API_KEYS
  | typeof AUTH_SOURCES
  | typeof GROUPS
  | typeof MEMBERS
  | typeof GROUP_LOGS
  | typeof PERMISSIONS;

export type IdentityEvent = RowEvent<IdentityTable>;
