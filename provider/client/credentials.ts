import { type ProviderConfig, type Setting, type SettingNaming, settingNaming } from "../config/provider-config";

export type Headers = Record<string, string>;

/**
 * The auth headers of the configured credential: Bearer API key, else the
 * session token in its header, else Basic user name and password.
 */
export function authHeadersFor(config: ProviderConfig): Headers {
  const { apiKey, sessionToken, username, password, tokenHeader } = config;
  if (apiKey) return { authorization: `Bearer ${apiKey}` };
  if (sessionToken) return { [tokenHeader.toLowerCase()]: sessionToken };
  if (username !== undefined && password !== undefined) return { authorization: basicAuthorization(username, password) };
  return {};
}

/** The settings of the credential authHeadersFor sends (same order), as an error names them: `vplatform:apiKey / VPLATFORM_API_KEY`. */
export function credentialSettingsOf(config: ProviderConfig, named: SettingNaming = settingNaming()): string {
  const { apiKey, sessionToken, username, password } = config;
  const settings: Setting[] = apiKey
    ? ["apiKey"]
    : sessionToken
      ? ["sessionToken", "tokenHeader"]
      : username !== undefined && password !== undefined
        ? ["username", "password"]
        : ["apiKey", "username", "password"];
  return settings.map((s) => named.withVariable(s)).join(", ");
}

const basicAuthorization = (username: string, password: string) => `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;

/** Every form in which a credential of `config` could travel. */
export function secretValuesOf(config: ProviderConfig): string[] {
  const { apiKey, sessionToken, username, password } = config;
  const basic = username !== undefined && password !== undefined ? [Buffer.from(`${username}:${password}`).toString("base64")] : [];
  return [apiKey, sessionToken, password, ...basic].filter((s): s is string => typeof s === "string" && s.length > 0);
}

/** Replaces every occurrence of a secret, longest first (one may contain another). */
export function redactorFor(secrets: string[]): (text: string) => string {
  const ordered = [...new Set(secrets)].sort((a, b) => b.length - a.length);
  return (text) => ordered.reduce((t, s) => t.split(s).join("[redacted]"), text);
}
