/**
 * The two error body shapes of the platform: `{"err": "..."}` for field
 * validation (the text names the field) and `{"error": "..."}` for operation
 * errors (state conflicts, missing rows, capacity).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly bodyField: "err" | "error" = "error",
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  body(): Record<string, string> {
    return { [this.bodyField]: this.message };
  }
}

/** `Validation error on field: 'dhcp_start' - 'fails validation test'` (the real API's wording). */
export function validationError(field: string, reason: string, status = 400): ApiError {
  return new ApiError(status, `Validation error on field: '${field}' - '${reason}'`, "err");
}

export function notFound(path: string, during = "get"): ApiError {
  return new ApiError(404, `Resource '${path}' not found during ${during}`);
}

export function conflict(message: string): ApiError {
  return new ApiError(409, message);
}
