/**
 * What the request recorder must never write: credentials and secrets. Values of secret-bearing names
 * (passwords, tokens, API-key secrets answered at creation, `Authorization`) become "<redacted>" at any
 * depth, as does an API-key secret or a session token wherever it appears in a string (a session's
 * token is its `$key`, its `location` and its logout path).
 */
export const REDACTED = "<redacted>";

const SECRET_NAME = /(^|_)(password|passwd|secret|token|private_key|api_?key|authorization|cookie)(_|$)/i;
const API_KEY_SECRET = /vpk_\d+_[0-9a-f]+/g;
const SESSION_PATH = /\/sys\/tokens\/[^/?"]+/g;

function redactText(text: string): string {
  return text.replace(API_KEY_SECRET, REDACTED).replace(SESSION_PATH, `/sys/tokens/${REDACTED}`);
}

/** A copy of a JSON value with every secret replaced; `sessionAnswer` also hides the `$key` (the token). */
export function redact(value: unknown, sessionAnswer = false): unknown {
  if (typeof value === "string") return redactText(value);
  if (Array.isArray(value)) return value.map((item) => redact(item));
  if (!value || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([name, v]) => [name, SECRET_NAME.test(name) || (sessionAnswer && name === "$key") ? REDACTED : redact(v)]),
  );
}

/** The URL as recorded: secrets in the path or query hidden. */
export function redactUrl(url: string): string {
  return redactText(url);
}
