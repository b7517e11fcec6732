/**
 * ApiKey: a key of a user, with the user's rights. The platform answers the
 * key's secret once, at creation; it is the `secret` output (a Pulumi secret).
 * The key string cannot change, so a new secret is a new key: `rotation`
 * replaces the key (created before the old one is deleted).
 */
import { z } from "zod";
import { apiField, keySchema, providerField, timeoutsSchema, whenValid } from "../../schemas/common";
import { expiryProblems, type IpEntry, ipListProblems, neverExpires, raise, type Problem } from "../../schemas/automationRules";
import { dateCodec, ipListCodec } from "../../schemas/fieldCodec";
import { output } from "../../schemas/outputs";
import type { OnceOutput } from "../../schemas/unreadable";
import { USER_TABLE } from "../../schemas/tables";

const ipEntrySchema = z.strictObject({
  address: z.string().meta({ description: "An IP address or CIDR block, IPv4 or IPv6 (10.0.0.5, 10.0.0.0/24, 2001:db8::/32)" }),
  enabled: z.boolean().default(true).meta({ description: "Whether the entry applies (a disabled entry is kept in the program, not sent)" }),
});

const ipList = (column: string, description: string) =>
  apiField(z.array(ipEntrySchema).default([]), column, "json", description, { codec: ipListCodec(column) });

const dateOrNever = z.union([z.literal("never"), z.iso.datetime({ offset: true }), z.iso.date()], {
  error: () => 'must be an ISO date (2030-01-31 or 2030-01-31T12:00:00Z) or "never"',
});

export const apiKeyShape = {
  user: apiField(
    keySchema.optional(),
    "user",
    "key",
    "Key of the user the key belongs to (a User's id); default: the provider's own user. Changing it replaces the key",
    { createOnly: true, onChange: "replace", references: { table: USER_TABLE, noun: "user" } },
  ),
  name: apiField(z.string().min(1).max(128), "name", "string", "Key name"),
  description: apiField(z.string().default(""), "description", "string", "Description"),
  expires: apiField(
    dateOrNever.default("never"),
    "expires",
    "json",
    'Expiry: an ISO date, or "never" (the spec\'s Set Date / Never Expire)',
    {
      codec: dateCodec("expires", "expires_type"),
    },
  ),
  ipAllowList: ipList(
    "ip_allow_list",
    "Only these addresses can authenticate with the key (empty: any address); an address on both lists is allowed",
  ),
  ipDenyList: ipList("ip_deny_list", "These addresses cannot authenticate with the key, unless the allow list has them"),
  rotation: providerField(
    z
      .union([z.string(), z.number()], { error: () => "must be a string or a number (e.g. a date): changing it replaces the key" })
      .optional(),
    "Changing this value (e.g. to a date) replaces the key: a new key and secret are created before the old key is deleted",
    { onChange: "replace" },
  ),
  timeouts: timeoutsSchema,
};

/** The IP lists' entries, each an address or a CIDR block (also the environment file's rule). */
export const API_KEY_RULE_FIELDS = ["ipAllowList", "ipDenyList"] as const;
export function checkApiKey(k: { ipAllowList: IpEntry[]; ipDenyList: IpEntry[] }, ctx: z.RefinementCtx): void {
  raise(ctx, [...ipListProblems("ipAllowList", k.ipAllowList), ...ipListProblems("ipDenyList", k.ipDenyList)]);
}

export const apiKeyInputsSchema = z.strictObject(apiKeyShape).superRefine(checkApiKey, whenValid(...API_KEY_RULE_FIELDS));
export type ApiKeyInputs = z.output<typeof apiKeyInputsSchema>;

/**
 * The expiry rule needs the time, so check() runs it beside the schema. A date
 * already recorded is not judged again: a key that expired since its creation
 * is refresh's business (it is gone, and replaced), not a bad input.
 */
export function apiKeyExpiryProblems(expires: string, recorded: string | undefined, nowMs: number): Problem[] {
  return judgesExpiry(expires, recorded) ? expiryProblems(expires, nowMs) : [];
}

/** Whether the expiry rule has a date to judge (and so needs the time): a new one that can expire. */
export function judgesExpiry(expires: string | undefined, recorded: string | undefined): boolean {
  return expires !== recorded && !neverExpires(expires);
}

export const apiKeyOutputs = {
  secret: {
    ...output("string", "The key's secret, answered once by the platform: a Pulumi secret (encrypted in state). Unknown after an import"),
    secret: true,
    onlyAtCreation: { regain: "change rotation to replace the key and get a new secret" },
  },
  created: output("integer", "When the key was created (Unix seconds)"),
  lastLoginStamp: output("integer", "When the key last authenticated (Unix seconds; 0 = never)"),
  lastLoginIp: output("string", "The address the key last authenticated from"),
} satisfies Record<string, OnceOutput>;

/** The columns of the read-only outputs, beside the inputs' columns. */
export const API_KEY_OUTPUT_COLUMNS = { created: "created", lastLoginStamp: "lastlogin_stamp", lastLoginIp: "lastlogin_ip" } as const;
