/**
 * API keys (`user_api_keys`). The secret is generated at creation, answered
 * once (in `response.token`, with `response.private_key` as an alias for the
 * clients that read that name) and stored only as a SHA-256 digest. Deleting
 * the row revokes the key at once; an expired key is deleted when next used.
 * Editing changes only name, description, expiry and IP lists.
 */
import { createHash, randomBytes } from "node:crypto";
import type { EmulatorContext } from "../../engine/context";
import { ApiError, validationError } from "../../model/errors";
import type { Row } from "../../model/types";
import { namedFields, table } from "../../model/tableParts";
import { parseIpList } from "./ipLists";
import { userByName } from "./users";
import { IDENTITY } from "../../model/names/identity";

export const digest = (secret: string) => createHash("sha256").update(secret).digest("hex");

function checkIpList(field: string, value: unknown): void {
  try {
    parseIpList(value);
  } catch (e) {
    throw validationError(field, (e as Error).message);
  }
}

export const apiKeysTable = table(IDENTITY.user_api_keys, {
  description: "API keys; each belongs to one user and has exactly that user's rights",
  keyType: "int",
  readRole: "admin",
  writeRole: "admin",
  parent: "user",
  fields: {
    user: {
      type: "row",
      ref: IDENTITY.users,
      refMustExist: 404,
      createOnly: true,
      summary: true,
      description: "owning user (default: the caller)",
    },
    ...namedFields(),
    created: { type: "created", readOnly: true },
    expires_type: {
      type: "string",
      enum: { date: "Set Date", never: "Never Expire" },
      default: (row: Record<string, unknown>) => (row.expires ? "date" : "never"),
    },
    expires: { type: "uint64", default: 0, description: "Unix seconds; 0 = never" },
    ip_allow_list: { type: "text", default: "", description: "comma list of addresses / CIDR blocks" },
    ip_deny_list: { type: "text", default: "", description: "comma list of addresses / CIDR blocks" },
    lastlogin_stamp: { type: "uint64", readOnly: true, default: 0 },
    lastlogin_ip: { type: "string", readOnly: true, default: "" },
    secret_sha256: { type: "string", hidden: true, readOnly: true },
  },
  hooks: {
    validate: (ctx, row) => {
      checkIpList("ip_allow_list", row.ip_allow_list);
      checkIpList("ip_deny_list", row.ip_deny_list);
      if (row.expires_type === "never") row.expires = 0;
      else if (!row.expires) throw validationError("expires", "is required when expires_type is date");
      else if ((row.expires as number) <= ctx.nowSeconds()) throw validationError("expires", "must be in the future");
    },
    beforeCreate: (ctx, row, caller) => {
      if (row.user === null || row.user === undefined) row.user = userByName(ctx, caller.user)?.$key ?? null;
    },
    afterCreate: (_ctx, row) => {
      const secret = `vpk_${row.$key}_${randomBytes(20).toString("hex")}`;
      row.secret_sha256 = digest(secret);
      return { token: secret, private_key: secret };
    },
  },
});

/** Finds the key row of a secret, deleting it (and failing) when expired. */
export function findApiKey(ctx: EmulatorContext, secret: string): Row {
  const wanted = digest(secret);
  const row = ctx.find(IDENTITY.user_api_keys, (k) => k.secret_sha256 === wanted)[0];
  if (!row) throw new ApiError(401, "invalid API key");
  if ((row.expires as number) > 0 && (row.expires as number) <= ctx.nowSeconds()) {
    ctx.remove(IDENTITY.user_api_keys, row.$key);
    throw new ApiError(401, "API key expired");
  }
  return row;
}
