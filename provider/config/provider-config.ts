import * as fs from "fs";

/** Provider settings, resolved from stack config (namespace `vplatform`) with environment fallbacks. */
export interface ProviderConfig {
  endpoint: string;
  apiKey?: string;
  username?: string;
  password?: string;
  sessionToken?: string;
  insecure: boolean;
  caCert?: string;
  tokenHeader: string;
  requestTimeoutMs: number;
  requestBudget?: number;
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

const SETTINGS = {
  endpoint: "VPLATFORM_ENDPOINT",
  apiKey: "VPLATFORM_API_KEY",
  username: "VPLATFORM_USERNAME",
  password: "VPLATFORM_PASSWORD",
  sessionToken: "VPLATFORM_SESSION_TOKEN",
  insecure: "VPLATFORM_INSECURE",
  caCert: "VPLATFORM_CA_CERT",
  tokenHeader: "VPLATFORM_TOKEN_HEADER",
  requestTimeoutMs: "VPLATFORM_REQUEST_TIMEOUT_MS",
  requestBudget: "VPLATFORM_REQUEST_BUDGET",
} as const;
type Setting = keyof typeof SETTINGS;

const describe = (s: Setting) => `vplatform:${s} (or ${SETTINGS[s]})`;

/**
 * Stack config wins over the environment. Messages name the setting and its
 * variable, never a value (several are secrets).
 */
export function resolveProviderConfig(get: (key: string) => string | undefined, env: NodeJS.ProcessEnv): ProviderConfig {
  const read = (s: Setting): string | undefined => {
    const v = get(`vplatform:${s}`) ?? env[SETTINGS[s]];
    return v === undefined || v === "" ? undefined : v;
  };
  const endpointText = read("endpoint");
  if (!endpointText) throw new ConfigError(`${describe("endpoint")} is not set`);
  if (!/^https:\/\/[^/]+/i.test(endpointText)) throw new ConfigError(`${describe("endpoint")} must be an https:// URL (the platform serves HTTPS only)`);
  const endpoint = endpointText.replace(/\/+$/, "").replace(/\/api$/, "");

  const apiKey = read("apiKey");
  const username = read("username");
  const password = read("password");
  const sessionToken = read("sessionToken");
  if (!apiKey && !sessionToken && !(username && password)) {
    throw new ConfigError(
      `no credentials: set ${describe("apiKey")}, or ${describe("username")} and ${describe("password")}, or ${describe("sessionToken")}`,
    );
  }
  const number = (s: Setting, fallback?: number): number | undefined => {
    const v = read(s);
    if (v === undefined) return fallback;
    const n = Number(v);
    if (!Number.isFinite(n) || n <= 0) throw new ConfigError(`${describe(s)} must be a positive number`);
    return n;
  };
  const insecureText = read("insecure");
  if (insecureText !== undefined && !/^(true|false|1|0)$/i.test(insecureText)) throw new ConfigError(`${describe("insecure")} must be true or false`);
  const caText = read("caCert");
  let caCert: string | undefined;
  if (caText !== undefined) {
    if (caText.includes("-----BEGIN")) caCert = caText;
    else if (fs.existsSync(caText)) caCert = fs.readFileSync(caText, "utf8");
    else throw new ConfigError(`${describe("caCert")} is neither a PEM certificate nor a readable file`);
  }
  return {
    endpoint,
    apiKey,
    username,
    password,
    sessionToken,
    insecure: insecureText !== undefined && /^(true|1)$/i.test(insecureText),
    caCert,
    tokenHeader: read("tokenHeader") ?? "x-service-token",
    requestTimeoutMs: number("requestTimeoutMs", 30_000)!,
    requestBudget: number("requestBudget"),
  };
}
