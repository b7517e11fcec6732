/**
 * Users and their roles. Three users are seeded (see README "Users and rights"):
 *   admin     role admin       everything, including `$table` and the /_emulator hooks
 *   operator  role vmoperator  reads everything; runs VM actions and notes, edits VMs and their hardware
 *   viewer    role readonly    reads only
 * Only admin has a password at start; an administrator sets the others' with
 * `PUT /v4/users/<key> {"password": "..."}` (or gives them API keys).
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { EmulatorContext } from "../core/context";
import { ApiError } from "../core/errors";
import type { Row, TableDef } from "../tables/types";

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

export const usersTable: TableDef = {
  name: "users",
  description: "user accounts; an API key inherits its user's role",
  keyType: "int",
  readRole: "readonly",
  writeRole: "admin",
  unique: { field: "name", message: "a user with that name exists" },
  fields: {
    name: { type: "string", required: true, maxLength: 128, pattern: /^[A-Za-z0-9_.@-]+$/, summary: true },
    displayname: { type: "string", default: "" },
    email: { type: "string", default: "", maxLength: 256 },
    role: {
      type: "string", default: "readonly", summary: true,
      enum: { admin: "Administrator", vmoperator: "VM operator", readonly: "Read only" },
    },
    password: { type: "string", hidden: true, maxLength: 1024 },
    enabled: { type: "bool", default: true },
    created: { type: "created", readOnly: true },
  },
  hooks: {
    beforeCreate: (_ctx, row) => hashOnWrite(row),
    beforeUpdate: (_ctx, _row, changes) => hashOnWrite(changes),
    beforeDelete: (_ctx, row) => {
      if (row.name === "admin") throw new ApiError(409, "the admin user cannot be deleted");
    },
    afterDelete: (ctx, row) => {
      for (const key of ctx.find("user_api_keys", (k) => k.user === row.$key)) ctx.remove("user_api_keys", key.$key);
    },
  },
};

export function seedUsers(ctx: EmulatorContext, adminPassword: string): void {
  ctx.insert("users", { name: "admin", displayname: "Administrator", role: "admin", password: hashPassword(adminPassword), enabled: true, created: ctx.nowSeconds() });
  ctx.insert("users", { name: "operator", displayname: "VM operator", role: "vmoperator", password: null, enabled: true, created: ctx.nowSeconds() });
  ctx.insert("users", { name: "viewer", displayname: "Read-only user", role: "readonly", password: null, enabled: true, created: ctx.nowSeconds() });
}

export function userByName(ctx: EmulatorContext, name: string): Row | undefined {
  return ctx.find("users", (u) => u.name === name)[0];
}
