/**
 * Users and their roles. Three users are seeded (see README "Users and rights"):
 *   admin     role admin       everything, including `$table` and the /_emulator hooks
 *   operator  role vmoperator  reads everything; runs VM actions and notes, edits VMs and their hardware
 *   viewer    role readonly    reads only
 * A user made with role `none` reaches only what `permissions` grant it (services/identity/grants.ts).
 * Only admin has a password at start; an administrator sets the others' with
 * `PUT /v4/users/<key> {"password": "..."}` (or gives them API keys).
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { EmulatorContext } from "../../engine/context";
import { createRow } from "../../engine/write";
import { ApiError } from "../../model/errors";
import { userIdentity } from "./grants";
import { removeGrants, removeMemberships } from "./groups";
import { SYSTEM_CALLER } from "../../model/callers";
import type { Row } from "../../model/types";
import { enabledField, table, uniqueNames } from "../../model/tableParts";
import { IDENTITY } from "../../model/names/identity";

/** Salted SHA-256: enough for an emulator, and cheap enough for Basic auth on every request. */
export function hashPassword(password: string, salt = randomBytes(8).toString("hex")): string {
  return `${salt}:${createHash("sha256").update(`${salt}:${password}`).digest("hex")}`;
}

export function passwordMatches(stored: unknown, password: string): boolean {
  if (typeof stored !== "string" || !stored.includes(":")) return false;
  const [salt] = stored.split(":");
  const a = Buffer.from(hashPassword(password, salt));
  const b = Buffer.from(stored);
  return a.length === b.length && timingSafeEqual(a, b);
}

const hashOnWrite = (row: Record<string, unknown>) => {
  if (typeof row.password === "string" && row.password !== "") row.password = hashPassword(row.password);
};

const USER_TYPES = { normal: "Normal", api: "API", vdi: "VDI", site_sync: "Site Sync", site_user: "Site User" };

export const usersTable = table(IDENTITY.users, {
  description: "user accounts; an API key inherits its user's role",
  readRole: "readonly",
  writeRole: "admin",
  ...uniqueNames("a user"),
  fields: {
    name: { type: "string", required: true, maxLength: 128, pattern: /^[A-Za-z0-9_.@-]+$/, summary: true },
    displayname: { type: "string", default: "" },
    role: {
      type: "string",
      default: "readonly",
      summary: true,
      enum: { admin: "Administrator", vmoperator: "VM operator", readonly: "Read only", none: "No role: only what permissions grant" },
    },
    password: { type: "string", hidden: true, maxLength: 1024 },
    enabled: enabledField(),
    created: { type: "created", readOnly: true },
    // The account fields the maker's clients read and send (test/emulator/clientFieldNames.ts); this emulator keeps
    // them as data: it has no e-mail, no second factor and no external authentication source.
    // A 40-character identifier, not the key: govergeos decodes `id` as a string ("the 40-character unique user identifier").
    id: { type: "string", compute: (_ctx, row) => userId(row.$key), description: "40 hex characters, stable for the user's key" },
    type: { type: "string", default: "normal", enum: USER_TYPES, description: "api: made for API access; site_*: made by site syncs" },
    email: { type: "string", default: "", maxLength: 256 },
    auth_source: { type: "row", ref: IDENTITY.auth_sources, default: null, description: "external authentication source (null: local)" },
    remote_name: { type: "string", default: "", description: "the user's name at the authentication source" },
    change_password: { type: "bool", default: false, description: "must change the password at the next login" },
    physical_access: { type: "bool", default: false, description: "may log in at a node's console" },
    two_factor_authentication: { type: "bool", default: false },
    two_factor_type: { type: "string", default: "email", enum: { email: "E-mail", authenticator: "Authenticator" } },
    two_factor_setup_next_login: { type: "bool", default: false },
    ssh_keys: { type: "text", default: "", description: "public keys, one a line" },
    theme: { type: "string", default: "" },
    identity: { type: "uint32", compute: (_ctx, row) => userIdentity(row.$key), description: "what permissions name this user by" },
    // A time, not a flag: both govergeos (int64) and pyVergeOS ("timestamp when locked, 0 if not") read it so.
    account_locked: { type: "uint64", readOnly: true, default: 0, description: "seconds since the epoch when locked; 0 = not locked" },
    failed_attempts: { type: "uint32", readOnly: true, default: 0 },
    last_login: { type: "uint64", readOnly: true, default: 0 },
    creator: { type: "string", readOnly: true, default: "" },
  },
  hooks: {
    beforeCreate: (_ctx, row, caller) => {
      hashOnWrite(row);
      row.creator = caller.user;
    },
    beforeUpdate: (_ctx, _row, changes) => hashOnWrite(changes),
    beforeDelete: (_ctx, row) => {
      if (row.name === "admin") throw new ApiError(409, "the admin user cannot be deleted");
    },
    afterDelete: (ctx, row) => {
      for (const key of ctx.find(IDENTITY.user_api_keys, (k) => k.user === row.$key)) ctx.remove(IDENTITY.user_api_keys, key.$key);
      removeMemberships(ctx, row);
      removeGrants(ctx, userIdentity(row.$key));
    },
  },
});

/** The user's 40-character id, derived from its key so it never changes. */
function userId(key: unknown): string {
  return createHash("sha1")
    .update(`user/${String(key)}`)
    .digest("hex");
}

export function seedUsers(ctx: EmulatorContext, adminPassword: string): void {
  createRow(ctx, usersTable, { name: "admin", displayname: "Administrator", role: "admin", password: adminPassword }, SYSTEM_CALLER);
  createRow(ctx, usersTable, { name: "operator", displayname: "VM operator", role: "vmoperator" }, SYSTEM_CALLER);
  createRow(ctx, usersTable, { name: "viewer", displayname: "Read-only user", role: "readonly" }, SYSTEM_CALLER);
}

export function userByName(ctx: EmulatorContext, name: string): Row | undefined {
  return ctx.find(IDENTITY.users, (u) => u.name === name)[0];
}
