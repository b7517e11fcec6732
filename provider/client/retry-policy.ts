export interface RetryPolicy {
  /** Attempts in all, the first included. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 4, baseDelayMs: 200, maxDelayMs: 5_000 };

/** Full-jitter exponential backoff: a random delay up to base·2^(attempt-1), capped. */
export function backoffDelay(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** Retry-After in seconds (or an HTTP date), capped so a misbehaving server cannot stall a run. */
export function retryAfterMs(header: string | undefined, now = Date.now(), capMs = 60_000): number {
  if (!header) return 1_000;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - now;
  return Math.min(capMs, Math.max(0, Number.isFinite(ms) ? ms : 1_000));
}

const IDEMPOTENT = new Set(["GET", "PUT", "DELETE"]);
const RETRIED_STATUS = new Set([500, 502, 503, 504]);
/** Connection errors after which the request may or may not have been processed. */
const CONNECTION_ERRORS = new Set(["ECONNRESET", "EPIPE", "ETIMEDOUT", "ECONNABORTED", "EAI_AGAIN", "ERR_GOT_REQUEST_ERROR"]);

/**
 * Whether a failed attempt may be sent again. 401 never is (the platform locks
 * accounts after a handful of failed logins); POST only when the connection
 * was refused, so it cannot have landed (a POST that may have landed is the
 * reconciler's business: it looks the row up by name).
 */
export function shouldRetry(method: string, outcome: { status?: number; errorCode?: string }): boolean {
  if (outcome.status === 429) return true;
  if (outcome.errorCode === "ECONNREFUSED") return true;
  if (!IDEMPOTENT.has(method)) return false;
  if (outcome.status !== undefined) return RETRIED_STATUS.has(outcome.status);
  return outcome.errorCode !== undefined && CONNECTION_ERRORS.has(outcome.errorCode);
}
