/**
 * Webhook (the spec's webhook settings; the table `webhook_urls`): where and
 * how task messages are sent. The authorization is secret and write-only: the
 * platform keeps it and never answers it, so only its type is read back.
 */
import { z } from "zod";
import { adoptSchema, apiField, timeoutsSchema, whenValid } from "../../schemas/common";
import {
  apiKeyValueProblems,
  bearerTokenProblems,
  headerProblems,
  MIN_WEBHOOK_TIMEOUT,
  raise,
  webhookTimeoutProblems,
} from "../../schemas/automationRules";
import { headerLinesCodec, type FieldCodec, type Row } from "../../schemas/fieldCodec";

const described = <T extends z.ZodType>(schema: T, description: string) => schema.meta({ description });

const authorizationSchema = z.discriminatedUnion(
  "type",
  [
    z.strictObject({ type: described(z.literal("none"), "No Authorization header") }),
    z.strictObject({
      type: described(z.literal("bearer"), "Authorization: Bearer <token>"),
      token: described(z.string().min(1), "The token alone, without the word Bearer (the spec)"),
    }),
    z.strictObject({
      type: described(z.literal("apiKey"), "Authorization: <key>"),
      key: described(z.string().min(1), "The raw key, without a prefix (the spec)"),
    }),
    z.strictObject({
      type: described(z.literal("basic"), "Authorization: Basic base64(username:password)"),
      username: described(
        z
          .string()
          .min(1)
          .regex(/^[^:]*$/, "a user name has no colon (Basic credentials are username:password)"),
        "User name",
      ),
      password: described(z.string().min(1), "Password"),
    }),
  ],
  { error: () => 'must be {type: "none"}, {type: "bearer", token}, {type: "apiKey", key} or {type: "basic", username, password}' },
);

export type WebhookAuthorization = z.output<typeof authorizationSchema>;

const API_TYPES = { none: "none", bearer: "bearer", apiKey: "apikey", basic: "basic" } as const satisfies Record<
  WebhookAuthorization["type"],
  string
>;

/** What the platform keeps for each type: the token, the raw key, or username:password. */
function authorizationValue(auth: WebhookAuthorization): string {
  switch (auth.type) {
    case "bearer":
      return auth.token;
    case "apiKey":
      return auth.key;
    case "basic":
      return `${auth.username}:${auth.password}`;
    case "none":
      return "";
  }
}

/** `authorization_type` and the write-only `authorization_value`; read back, only the type can differ from the declaration. */
export const authorizationCodec: FieldCodec<WebhookAuthorization> = {
  columns: ["authorization_type"],
  toApi: (auth) => ({ authorization_type: API_TYPES[auth.type], authorization_value: authorizationValue(auth) }),
  fromApi(row: Row, declared) {
    if (!("authorization_type" in row)) return undefined;
    const type = (Object.keys(API_TYPES) as WebhookAuthorization["type"][]).find((t) => API_TYPES[t] === row.authorization_type);
    if (type === undefined) return undefined;
    if (declared?.type === type) return declared;
    // Another type than declared: its value is unknown; the type alone shows the drift.
    return { type } as WebhookAuthorization;
  },
};

export const DEFAULT_WEBHOOK_HEADERS = [{ name: "Content-Type", value: "application/json" }];

const headerSchema = z.strictObject({
  name: described(z.string(), "Header name"),
  value: described(z.string(), "Header value"),
});

export const webhookShape = {
  name: apiField(z.string().min(1).max(128), "name", "string", "Webhook name, unique on the platform"),
  description: apiField(z.string().default(""), "description", "string", "Description"),
  url: apiField(
    z.url({ protocol: /^https?$/, error: () => "must be an http or https URL, e.g. https://hooks.example/alert" }),
    "url",
    "string",
    "Endpoint that receives the request",
  ),
  authorization: apiField(
    authorizationSchema.default({ type: "none" }),
    "authorization_type",
    "json",
    "How the request authenticates (secret; the platform never answers it)",
    {
      secret: true,
      writeOnly: true,
      codec: authorizationCodec,
    },
  ),
  headers: apiField(
    z.array(headerSchema).default(DEFAULT_WEBHOOK_HEADERS),
    "headers",
    "json",
    "Headers, sent in this order (default: Content-Type: application/json, the platform's default; [] sends none)",
    { codec: headerLinesCodec("headers") },
  ),
  allowInsecure: apiField(z.boolean().default(false), "allow_insecure", "bool", "Accept self-signed certificates (not for production)"),
  timeout: apiField(
    z.number().int().max(120).default(5),
    "timeout",
    "int",
    `Seconds to wait for an answer, ${MIN_WEBHOOK_TIMEOUT} or more (default 5)`,
  ),
  retries: apiField(
    z.number().int().min(0).max(100).default(3),
    "retries",
    "int",
    "Reattempts when there is no answer or an error (default 3)",
  ),
  adopt: adoptSchema,
  timeouts: timeoutsSchema,
};

export const webhookInputsSchema = z
  .strictObject(webhookShape)
  .superRefine((w, ctx) => raise(ctx, webhookProblems(w)), whenValid("timeout", "headers", "authorization"));
export type WebhookInputs = z.output<typeof webhookInputsSchema>;

function webhookProblems(w: Pick<WebhookInputs, "timeout" | "headers" | "authorization">) {
  return [...webhookTimeoutProblems(w.timeout), ...headerProblems(w.headers), ...credentialProblems(w.authorization)];
}

/** The spec's raw values: a token without the word Bearer, a key without a prefix. */
function credentialProblems(auth: WebhookAuthorization) {
  if (auth.type === "bearer") return bearerTokenProblems(["authorization", "token"], auth.token);
  if (auth.type === "apiKey") return apiKeyValueProblems(["authorization", "key"], auth.key);
  return [];
}
