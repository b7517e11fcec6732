/** An answer of the platform that is not a success: status, the API's own text, and the request (never a credential). */
export class ApiError extends Error {
  override name = "ApiError";
  constructor(
    readonly status: number,
    readonly method: string,
    readonly path: string,
    readonly apiMessage?: string,
  ) {
    super(`${method} ${path}: ${status}${apiMessage ? ` ${apiMessage}` : ""}`);
  }
}

/** The configured cap on requests was reached (the platform allows 1000 per hour per API key). */
export class RequestBudgetExceeded extends Error {
  override name = "RequestBudgetExceeded";
  constructor(budget: number, method: string, path: string) {
    super(`${method} ${path}: not sent, the request budget of ${budget} requests (vplatform:requestBudget) is used up`);
  }
}

/** The API's error text: `err` for validation errors, `error` for operation errors. */
export function apiMessageOf(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { err?: unknown; error?: unknown; message?: unknown };
    const text = parsed.err ?? parsed.error ?? parsed.message;
    return typeof text === "string" ? text : undefined;
  } catch {
    return body.trim().slice(0, 200) || undefined;
  }
}
