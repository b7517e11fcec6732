/**
 * The identity service: users and their API keys, authentication sources, groups with their members and logs,
 * and the grants of `permissions`; beside them how a request is authenticated (keys, sessions, passwords) and
 * what a caller may do (roles, then grants).
 */
import type { Service } from "../../model/types";
import { apiKeysTable } from "./apiKeys";
import { authSourcesTable } from "./authSources";
import { groupLogsTable, groupsTable, membersTable } from "./groups";
import { permissionsTable } from "./permissions";
import { usersTable } from "./users";

export const identityService: Service = {
  tables: [usersTable, apiKeysTable, authSourcesTable, groupsTable, membersTable, groupLogsTable, permissionsTable],
};
