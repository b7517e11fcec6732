export interface RetryPolicy {
  /** Attempts in all, the first included. */
  attempts: number;
  /**
   * Time for all attempts of one request, when it runs in no resource
   * operation (see operationDeadline.ts): long enough to ride out a platform restart.
   */
  budgetMs: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A 429 asking to wait longer than this is not retried: the error surfaces instead of stalling the run. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 40, budgetMs: 60_000, baseDelayMs: 250, maxDelayMs: 8_000, maxRetryAfterMs: 60_000 };

/** What one attempt came to: an HTTP answer, or a connection failure before any answer. */
export type AttemptOutcome =
  | { kind: "response"; status: number; retryAfter?: string }
  | {
      kind: "connection";
      code: string;
      /** Whether the whole request was handed to the network: if not, the server cannot have processed it. */
      requestWritten: boolean;
    };

const IDEMPOTENT: ReadonlySet<string> = new Set(["GET", "PUT", "DELETE", "HEAD"]);
/** Transient server states. 501, 505 and 507 (out of storage or cluster resources) do not heal by retrying. */
const RETRIED_STATUS: ReadonlySet<number> = new Set([500, 502, 503, 504]);
/** Failures of the connection, not of the request (TLS verification errors are not among them). */
const CONNECTION_ERRORS: ReadonlySet<string> = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ERR_STREAM_PREMATURE_CLOSE",
]);

/**
 * Milliseconds to wait before the next attempt, or undefined when the failure
 * is final (or the wait would pass `deadline`, epoch ms). The rules:
 * - 401 never (the platform locks an account after about five failed logins);
 * - 429 for every method (the request was not processed), after Retry-After;
 * - 500/502/503/504 and connection failures for idempotent methods (GET, PUT, DELETE);
 * - POST only after a connection failure that happened before the request was
 *   completely written, so the server cannot have processed it. A POST that may
 *   have landed (no answer, dropped or late; 5xx; 408) is not repeated here: the
 *   reconciler first looks whether it took, and sends it again only if not,
 *   until the operation's time limit (each send counted in the request budget):
 *   - a create (a row, a clone, a snapshot) by its row, found by its marker
 *     or name (reconcile/insertRow.ts);
 *   - an action that makes no row (power on/off/kill, restore) by the machine's
 *     status, read through the shared poller (reconcile/confirmedAction.ts);
 *     a 409 the status explains (already there, under way) counts as taken.
 */
export function retryDelay(
  method: string,
  outcome: AttemptOutcome,
  attempt: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
  now: number = Date.now(),
  deadline: number = Infinity,
): number | undefined {
  const delay = delayFor(method, outcome, attempt, policy, random, now);
  return delay !== undefined && now + delay <= deadline ? delay : undefined;
}

function delayFor(
  method: string,
  outcome: AttemptOutcome,
  attempt: number,
  policy: RetryPolicy,
  random: () => number,
  now: number,
): number | undefined {
  if (attempt >= policy.attempts) return undefined;
  const backoff = () => backoffDelay(policy, attempt, random);
  if (outcome.kind === "response") {
    if (outcome.status === 429) {
      const wait = retryAfterMs(outcome.retryAfter, now) ?? backoff();
      return wait <= policy.maxRetryAfterMs ? wait : undefined;
    }
    return IDEMPOTENT.has(method) && RETRIED_STATUS.has(outcome.status) ? backoff() : undefined;
  }
  if (!CONNECTION_ERRORS.has(outcome.code)) return undefined;
  return IDEMPOTENT.has(method) || !outcome.requestWritten ? backoff() : undefined;
}

/** Exponential backoff with jitter: uniform in [ceiling/2, ceiling], ceiling = base·2^(attempt-1) capped at max. */
export function backoffDelay(
  policy: Pick<RetryPolicy, "baseDelayMs" | "maxDelayMs">,
  attempt: number,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** Retry-After as delta seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | undefined, now: number = Date.now()): number | undefined {
  if (header === undefined || header.trim() === "") return undefined;
  if (/^\s*[-+]?[\d.]+\s*$/.test(header)) {
    const seconds = Number(header);
    return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
  }
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
