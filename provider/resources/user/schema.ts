/** User: an account of the platform; an API key has exactly its user's rights, so a pipeline gets a user of its own. */
import { z } from "zod";
import { adoptSchema, apiField, timeoutsSchema } from "../../schemas/common";

/** The platform's roles; `none`: only what the platform's permissions grant. */
export const USER_ROLES = ["admin", "vmoperator", "readonly", "none"] as const;

export const userShape = {
  name: apiField(
    z.string().regex(/^[A-Za-z0-9_.@-]{1,128}$/, "letters, digits and _ . @ - only (at most 128)"),
    "name",
    "string",
    "Login name, unique on the platform",
  ),
  displayName: apiField(z.string().max(256).optional(), "displayname", "string", "Name shown in the platform's interface"),
  email: apiField(z.email().optional(), "email", "string", "E-mail address"),
  enabled: apiField(z.boolean().default(true), "enabled", "bool", "Whether the user can log in (with a password or an API key)"),
  role: apiField(
    z.enum(USER_ROLES).default("readonly"),
    "role",
    "string",
    "Rights of the user, and of every API key of the user: admin, vmoperator (VM actions and hardware), readonly, or none (only what the platform's permissions grant)",
  ),
  password: apiField(
    z.string().min(1).max(1024).optional(),
    "password",
    "string",
    "Password (secret, write-only: sent to the platform, never read back; a change is sent again)",
    { secret: true, writeOnly: true },
  ),
  adopt: adoptSchema,
  timeouts: timeoutsSchema,
};

export const userInputsSchema = z.strictObject(userShape);
export type UserInputs = z.output<typeof userInputsSchema>;
