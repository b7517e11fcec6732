import { type AttemptOutcome, type RetryPolicy, backoffDelay, retryAfterMs, retryDelay } from "./retry-policy";

const policy: RetryPolicy = { attempts: 4, budgetMs: 60_000, baseDelayMs: 100, maxDelayMs: 1_000, maxRetryAfterMs: 10_000 };
const status = (s: number, retryAfter?: string): AttemptOutcome => ({ kind: "response", status: s, retryAfter });
const dropped = (code: string, requestWritten: boolean): AttemptOutcome => ({ kind: "connection", code, requestWritten });
const half = () => 0.5;
const retries = (method: string, outcome: AttemptOutcome, attempt = 1) => retryDelay(method, outcome, attempt, policy, half) !== undefined;

describe("backoffDelay", () => {
  test("doubles per attempt up to the cap, jittered between half the ceiling and the ceiling", () => {
    expect([1, 2, 3, 4, 5, 6].map((a) => backoffDelay(policy, a, () => 0))).toEqual([50, 100, 200, 400, 500, 500]);
    expect([1, 2, 3, 4, 5, 6].map((a) => backoffDelay(policy, a, () => 1))).toEqual([100, 200, 400, 800, 1000, 1000]);
  });

  test("random draws spread over the whole jitter range", () => {
    const draws = Array.from({ length: 200 }, () => backoffDelay(policy, 3));
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(200);
    expect(Math.max(...draws)).toBeLessThanOrEqual(400);
    expect(new Set(draws).size).toBeGreaterThan(10);
  });
});

describe("retryAfterMs", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");
  test("delta seconds", () => {
    expect(retryAfterMs("3", now)).toBe(3000);
    expect(retryAfterMs("0", now)).toBe(0);
    expect(retryAfterMs("1.5", now)).toBe(1500);
  });
  test("an HTTP date, never negative", () => {
    expect(retryAfterMs("Thu, 01 Jan 2026 00:00:07 GMT", now)).toBe(7000);
    expect(retryAfterMs("Wed, 31 Dec 2025 23:00:00 GMT", now)).toBe(0);
  });
  test("absent or unreadable gives undefined", () => {
    expect(retryAfterMs(undefined, now)).toBeUndefined();
    expect(retryAfterMs("", now)).toBeUndefined();
    expect(retryAfterMs("soon", now)).toBeUndefined();
    expect(retryAfterMs("-5", now)).toBeUndefined();
  });
});

describe("which failures are retried", () => {
  test("401 never, for any method (accounts lock after a few failed logins)", () => {
    for (const m of ["GET", "PUT", "DELETE", "POST"]) expect(retries(m, status(401))).toBe(false);
  });

  test("other 4xx answers are final", () => {
    for (const s of [400, 403, 404, 405, 409, 422]) expect(retries("GET", status(s))).toBe(false);
  });

  test("500/502/503/504 are retried for GET, PUT and DELETE, not for POST", () => {
    for (const s of [500, 502, 503, 504]) {
      for (const m of ["GET", "PUT", "DELETE"]) expect(retries(m, status(s))).toBe(true);
      expect(retries("POST", status(s))).toBe(false);
    }
  });

  test("501, 505 and 507 (out of storage or resources) are final", () => {
    for (const s of [501, 505, 507]) expect(retries("GET", status(s))).toBe(false);
  });

  test("429 is retried for every method after Retry-After, or after backoff without one", () => {
    for (const m of ["GET", "POST", "PUT", "DELETE"]) expect(retryDelay(m, status(429, "2"), 1, policy, half)).toBe(2000);
    expect(retryDelay("POST", status(429), 1, policy, half)).toBe(75);
  });

  test("429 asking to wait longer than maxRetryAfterMs is final", () => {
    expect(retryDelay("GET", status(429, "3600"), 1, policy, half)).toBeUndefined();
  });

  test("connection failures are retried for idempotent methods whether or not the request was written", () => {
    for (const code of ["ECONNRESET", "ECONNREFUSED", "ETIMEDOUT", "EPIPE", "ERR_STREAM_PREMATURE_CLOSE"]) {
      for (const m of ["GET", "PUT", "DELETE"]) {
        expect(retries(m, dropped(code, true))).toBe(true);
        expect(retries(m, dropped(code, false))).toBe(true);
      }
    }
  });

  test("POST is retried only when the connection failed before the request was completely written", () => {
    expect(retries("POST", dropped("ECONNREFUSED", false))).toBe(true);
    expect(retries("POST", dropped("ECONNRESET", false))).toBe(true);
    expect(retries("POST", dropped("ECONNRESET", true))).toBe(false);
    expect(retries("POST", dropped("ETIMEDOUT", true))).toBe(false);
  });

  test("TLS verification and unknown errors are final", () => {
    for (const code of ["DEPTH_ZERO_SELF_SIGNED_CERT", "ERR_TLS_CERT_ALTNAME_INVALID", "ENOTFOUND", "EUNKNOWN"]) {
      expect(retries("GET", dropped(code, false))).toBe(false);
    }
  });

  test("no retry once the attempts are used up", () => {
    expect(retries("GET", status(503), 3)).toBe(true);
    expect(retries("GET", status(503), 4)).toBe(false);
    expect(retries("GET", status(429, "1"), 4)).toBe(false);
  });

  test("the delay grows with the attempt", () => {
    expect([1, 2, 3].map((a) => retryDelay("GET", status(503), a, policy, half))).toEqual([75, 150, 300]);
  });

  test("no retry whose wait would pass the operation's deadline", () => {
    const now = 1_000_000;
    expect(retryDelay("GET", status(503), 1, policy, half, now, now + 75)).toBe(75);
    expect(retryDelay("GET", status(503), 1, policy, half, now, now + 74)).toBeUndefined();
  });
});
