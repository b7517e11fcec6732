import * as fs from "node:fs";
import { inspect } from "node:util";

/** Provider settings, resolved from stack config (namespace `vplatform`) with environment fallbacks. */
export interface ProviderConfig {
  /** Origin of the platform, e.g. `https://10.0.0.5:8443`; the API is under `${endpoint}/api`. */
  endpoint: string;
  apiKey?: string;
  username?: string;
  password?: string;
  sessionToken?: string;
  insecure: boolean;
  /** PEM text of an extra CA to trust (a path in config is read here). */
  caCert?: string;
  tokenHeader: string;
  requestTimeoutMs: number;
  requestBudget?: number;
  /** The window the budget counts over, in seconds (the platform's hour unless a test scales time). */
  requestBudgetWindowSec?: number;
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** A stack config map as configure() receives it, or a getter over one. */
export type StackConfig = Record<string, string | undefined> | ((key: string) => string | undefined);

export const DEFAULT_TOKEN_HEADER = "x-service-token";
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

export interface SettingSpec {
  /** The environment variable read when the stack config does not set it. */
  env: string;
  type: "string" | "boolean" | "integer";
  secret?: boolean;
  description: string;
}

/**
 * Every provider setting, declared once: the resolver below, schema.json's
 * config and docs/reference/configuration.md's table (scripts/gen-schema.ts) read it.
 */
export const SETTINGS = {
  endpoint: { env: "VPLATFORM_ENDPOINT", type: "string", description: "`https://host[:port]` of the platform (the API is under `/api`)" },
  apiKey: { env: "VPLATFORM_API_KEY", type: "string", secret: true, description: "API key, sent as a Bearer token" },
  username: { env: "VPLATFORM_USERNAME", type: "string", description: "User name for Basic credentials (sent on every request)" },
  password: { env: "VPLATFORM_PASSWORD", type: "string", secret: true, description: "Password for Basic credentials" },
  sessionToken: { env: "VPLATFORM_SESSION_TOKEN", type: "string", secret: true, description: "Session token, sent in the token header" },
  tokenHeader: {
    env: "VPLATFORM_TOKEN_HEADER",
    type: "string",
    description: `Header of the session token (default \`${DEFAULT_TOKEN_HEADER}\`)`,
  },
  caCert: { env: "VPLATFORM_CA_CERT", type: "string", description: "PEM text (or a path) of a CA certificate to trust" },
  insecure: { env: "VPLATFORM_INSECURE", type: "boolean", description: "Skip TLS verification (only when asked)" },
  requestTimeoutMs: {
    env: "VPLATFORM_REQUEST_TIMEOUT_MS",
    type: "integer",
    description: `Per-request timeout in ms (default ${DEFAULT_REQUEST_TIMEOUT_MS})`,
  },
  requestBudget: {
    env: "VPLATFORM_REQUEST_BUDGET",
    type: "integer",
    description:
      "API requests per window the provider process paces itself to, waiting rather than failing (default 1000: the platform's limit per hour per key)",
  },
  requestBudgetWindowSec: {
    env: "VPLATFORM_REQUEST_BUDGET_WINDOW_SEC",
    type: "integer",
    description: "The window of requestBudget in seconds (default 3600)",
  },
} as const satisfies Record<string, SettingSpec>;
export type Setting = keyof typeof SETTINGS;
export const SETTING_NAMES = Object.keys(SETTINGS) as Setting[];
const ENV_NAMES = Object.fromEntries(SETTING_NAMES.map((s) => [s, SETTINGS[s].env])) as { [S in Setting]: (typeof SETTINGS)[S]["env"] };

/** `vplatform:endpoint`: the name a user sets. */
export const settingKey = (s: Setting) => `vplatform:${s}`;

/**
 * Set by `vplatform env` in the environment of the engine it runs: that provider takes its settings from the
 * VPLATFORM_* variables alone (the CLI has no stack config to set, and no --run-program), so its errors name them.
 */
export const SETTINGS_FROM_VARIABLE = "VPLATFORM_SETTINGS_FROM";
export const SETTINGS_FROM_ENV_CLI = "vplatform-env";

/** How the provider's messages name its settings to the person who fixes them. */
export interface SettingNaming {
  /** `vplatform:endpoint`; under `vplatform env`, `VPLATFORM_ENDPOINT`. */
  name(s: Setting): string;
  /** `vplatform:endpoint / VPLATFORM_ENDPOINT` (a hint's "check ..."); under `vplatform env`, `VPLATFORM_ENDPOINT`. */
  withVariable(s: Setting): string;
  /** `vplatform:username and vplatform:password (or VPLATFORM_USERNAME and VPLATFORM_PASSWORD)`; under `vplatform env`, the variables. */
  orVariables(...settings: Setting[]): string;
  /** `vplatform:endpoint is not set (or VPLATFORM_ENDPOINT)`; under `vplatform env`, `VPLATFORM_ENDPOINT is not set`. */
  notSet(s: Setting): string;
  /** What gives corrected settings to the commands that do not run the program; "" when every command reads them afresh. */
  afterCorrecting: string;
  /** What reads the platform into the state: `pulumi refresh`; under `vplatform env`, its own commands. */
  refresh: string;
}

/** The one place the wording is chosen: by the tool that runs the provider (a Pulumi program's stack, or `vplatform env`). */
export function settingNaming(env: NodeJS.ProcessEnv = process.env): SettingNaming {
  const variables = (settings: Setting[]) => settings.map((s) => ENV_NAMES[s]).join(" and ");
  if (env[SETTINGS_FROM_VARIABLE] === SETTINGS_FROM_ENV_CLI)
    return {
      name: (s) => ENV_NAMES[s],
      withVariable: (s) => ENV_NAMES[s],
      orVariables: (...settings) => variables(settings),
      notSet: (s) => `${ENV_NAMES[s]} is not set`,
      afterCorrecting: "",
      refresh: "run `vplatform env refresh` (or `vplatform env up`, which reads the platform first)",
    };
  return {
    name: settingKey,
    withVariable: (s) => `${settingKey(s)} / ${ENV_NAMES[s]}`,
    orVariables: (...settings) => `${settings.map(settingKey).join(" and ")} (or ${variables(settings)})`,
    notSet: (s) => `${settingKey(s)} is not set (or ${ENV_NAMES[s]})`,
    afterCorrecting:
      "`pulumi refresh` and `pulumi destroy` use the settings stored by the last update: after correcting them, add --run-program",
    refresh: "run `pulumi refresh`",
  };
}

/**
 * Stack config wins over the environment; empty values count as unset.
 * Messages name the setting and its variable, never a value (several are secrets).
 */
export function resolveProviderConfig(stackConfig: StackConfig, env: NodeJS.ProcessEnv): ProviderConfig {
  const fromStack = typeof stackConfig === "function" ? stackConfig : (k: string) => stackConfig[k];
  const present = (v: string | undefined) => (v === undefined || v.trim() === "" ? undefined : v.trim());
  const read = (s: Setting) => present(fromStack(settingKey(s))) ?? present(env[ENV_NAMES[s]]);
  const named = settingNaming(env);
  const refuse = (message: string): never => {
    throw new ConfigError(message);
  };
  const fail = (s: Setting, problem: string): never => refuse(`${named.name(s)} ${problem}`);

  const endpoint = parseEndpoint(read("endpoint") ?? refuse(named.notSet("endpoint")), (p) => fail("endpoint", p));
  const credentials = resolveCredentials(read, named);
  const config: ProviderConfig = {
    endpoint,
    ...credentials,
    insecure: parseBoolean(read("insecure"), (p) => fail("insecure", p)),
    caCert: loadCaCert(read("caCert"), (p) => fail("caCert", p)),
    tokenHeader: parseHeaderName(read("tokenHeader") ?? DEFAULT_TOKEN_HEADER, (p) => fail("tokenHeader", p)),
    requestTimeoutMs: parsePositiveInteger(read("requestTimeoutMs"), (p) => fail("requestTimeoutMs", p)) ?? DEFAULT_REQUEST_TIMEOUT_MS,
    requestBudget: parsePositiveInteger(read("requestBudget"), (p) => fail("requestBudget", p)),
    requestBudgetWindowSec: parsePositiveInteger(read("requestBudgetWindowSec"), (p) => fail("requestBudgetWindowSec", p)),
  };
  return hideSecrets(dropUndefined(config));
}

type Credentials = Pick<ProviderConfig, "apiKey" | "username" | "password" | "sessionToken">;

/** One credential kind wins: API key, then session token, then user name and password. */
function resolveCredentials(read: (s: Setting) => string | undefined, named: SettingNaming): Credentials {
  const apiKey = read("apiKey");
  if (apiKey) return { apiKey };
  const sessionToken = read("sessionToken");
  if (sessionToken) return { sessionToken };
  const username = read("username");
  const password = read("password");
  if (username && password) return { username, password };
  if (username) throw new ConfigError(`${named.notSet("password")}; it is needed with ${named.name("username")}`);
  if (password) throw new ConfigError(`${named.notSet("username")}; it is needed with ${named.name("password")}`);
  throw new ConfigError(
    `no credentials: set ${named.orVariables("apiKey")}, or ${named.orVariables("username", "password")}, or ${named.orVariables("sessionToken")}`,
  );
}

/** `https://host[:port]`, without a trailing slash or `/api` (both are common when pasting). */
export function parseEndpoint(text: string, fail: (problem: string) => never): string {
  // `127.0.0.1:8443`, `platform.example.com`: the address without its scheme, the usual slip.
  if (!text.includes("://")) return fail(`has no scheme: write it as https://${text.replace(/^\/+/, "")}`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return fail("is not a valid URL");
  }
  if (url.protocol !== "https:") return fail("must be an https:// URL (the platform serves HTTPS only)");
  if (url.username || url.password) return fail("must not contain credentials (use vplatform:username and vplatform:password)");
  if (url.search || url.hash) return fail("must not contain a query or fragment");
  const path = url.pathname.replace(/\/+$/, "").replace(/\/api$/, "");
  return `${url.origin}${path}`;
}

export function parseBoolean(text: string | undefined, fail: (problem: string) => never): boolean {
  if (text === undefined) return false;
  if (/^(true|1|yes)$/i.test(text)) return true;
  if (/^(false|0|no)$/i.test(text)) return false;
  return fail("must be true or false");
}

export function parsePositiveInteger(text: string | undefined, fail: (problem: string) => never): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  return Number.isInteger(n) && n > 0 ? n : fail("must be a positive integer");
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
export function parseHeaderName(text: string, fail: (problem: string) => never): string {
  return HEADER_NAME.test(text) ? text.toLowerCase() : fail("must be an HTTP header name");
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/;

/** PEM text as given, or the contents of the file it names. */
export function loadCaCert(text: string | undefined, fail: (problem: string) => never): string | undefined {
  if (text === undefined) return undefined;
  if (text.includes("-----BEGIN")) return PEM_CERTIFICATE.test(text) ? text : fail("is not a PEM certificate");
  let contents: string;
  try {
    contents = fs.readFileSync(text, "utf8");
  } catch (err) {
    return fail(`is neither PEM text nor a readable file (${(err as NodeJS.ErrnoException).code ?? "unreadable"}: ${text})`);
  }
  return PEM_CERTIFICATE.test(contents) ? contents : fail(`names a file without a PEM certificate (${text})`);
}

function dropUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

const SECRET_FIELDS = SETTING_NAMES.filter((s) => (SETTINGS[s] as SettingSpec).secret);

/**
 * The same object, but `util.inspect` and `JSON.stringify` show secrets as
 * "[secret]" (non-enumerable hooks: spreading the config drops them, values stay readable).
 */
export function hideSecrets(config: ProviderConfig): ProviderConfig {
  const masked = () => {
    const copy: Record<string, unknown> = { ...config };
    for (const f of SECRET_FIELDS) if (copy[f] !== undefined) copy[f] = "[secret]";
    return copy;
  };
  Object.defineProperty(config, inspect.custom, { value: () => masked(), enumerable: false });
  Object.defineProperty(config, "toJSON", { value: masked, enumerable: false });
  return config;
}
