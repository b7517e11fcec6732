/**
 * An answer of the platform that is not a success, or a request that got no
 * answer (`status` 0, with the connection error's `code`). It carries the
 * request and the API's own text, never a credential, a header or got's options.
 */
export class ApiError extends Error {
  override name = "ApiError";
  constructor(
    readonly status: number,
    readonly method: string,
    readonly path: string,
    readonly apiMessage?: string,
    /** For status 0: the connection error (ECONNRESET, ETIMEDOUT, a TLS verification code, ...). */
    readonly code?: string,
  ) {
    super(formatApiError(status, method, path, apiMessage));
  }
}

/** `POST /v4/vms: 409 VM with that name exists`; status 0 reads as "no response". */
export function formatApiError(status: number, method: string, path: string, apiMessage?: string): string {
  const outcome = status === 0 ? "no response" : String(status);
  return `${method} ${path}: ${outcome}${apiMessage ? ` ${apiMessage}` : ""}`;
}

/** The configured cap on requests was reached (the platform allows 1000 per hour per API key). */
export class RequestBudgetExceeded extends Error {
  override name = "RequestBudgetExceeded";
  constructor(
    readonly budget: number,
    readonly method: string,
    readonly path: string,
  ) {
    super(`${method} ${path}: not sent, the request budget of ${budget} requests (vplatform:requestBudget) is used up`);
  }
}

/** The API's error text: `err` in validation errors, `error` in operation errors (`message` in some releases). */
export function apiMessageOf(body: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return body.trim().slice(0, 200) || undefined;
  }
  if (typeof parsed !== "object" || parsed === null) return undefined;
  const { err, error, message } = parsed as Record<string, unknown>;
  const text = [err, error, message].find((t) => typeof t === "string" && t !== "");
  return text as string | undefined;
}
