/**
 * Webhook headers and authorization. Headers are stored as `Name: Value`
 * lines (the order is the order sent); the authorization type adds one
 * `Authorization` header after them, replacing any configured one.
 */

/** Header names are HTTP tokens; values may not hold line breaks (no header injection). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export const DEFAULT_HEADERS = "Content-Type: application/json";

export const AUTHORIZATION_TYPES = { none: "None", basic: "Basic", bearer: "Bearer Token", apikey: "API Key" } as const;
export type AuthorizationType = keyof typeof AUTHORIZATION_TYPES;

export type HeaderList = [name: string, value: string][];

/** Parses the stored lines, or answers the reason they are invalid. Blank lines are ignored. */
export function parseHeaderLines(text: string): HeaderList | string {
  const headers: HeaderList = [];
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === "") continue;
    const colon = line.indexOf(":");
    if (colon <= 0) return `line '${line}' is not 'Name: Value'`;
    const name = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    if (!HEADER_NAME.test(name)) return `'${name}' is not a valid header name`;
    if (/[\0\r]/.test(value)) return `the value of '${name}' holds a control character`;
    headers.push([name, value]);
  }
  return headers;
}

/** The Authorization header value of a webhook, or undefined for `none`. */
export function authorizationValue(type: AuthorizationType, secret: string): string | undefined {
  switch (type) {
    case "none":
      return undefined;
    case "bearer":
      return `Bearer ${secret}`;
    case "apikey":
      return secret;
    case "basic":
      return `Basic ${Buffer.from(secret, "utf8").toString("base64")}`;
  }
}

/** Why an authorization value does not suit its type, or undefined when it does. */
export function authorizationProblem(type: AuthorizationType, secret: string): string | undefined {
  if (type === "none") return undefined;
  if (secret === "") return `is required for authorization_type ${type}`;
  if (/[\0\r\n]/.test(secret)) return "holds a control character";
  if (type === "basic" && !secret.includes(":")) return "must be 'user:password' for basic";
  return undefined;
}

/** The headers sent: the configured ones in order, then Authorization (replacing a configured one). */
export function requestHeaders(configured: HeaderList, type: AuthorizationType, secret: string): HeaderList {
  const authorization = authorizationValue(type, secret);
  if (authorization === undefined) return configured;
  return [...configured.filter(([name]) => name.toLowerCase() !== "authorization"), ["Authorization", authorization]];
}
