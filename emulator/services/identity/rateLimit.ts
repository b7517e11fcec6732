/**
 * Per-API-key request budget (spec: 1000 requests per hour per key). A fixed
 * one-hour window starts at a key's first request; past the budget the answer
 * is 429 with Retry-After = seconds until the window ends.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    readonly perHour: number,
    private readonly now: () => number = Date.now,
    /** The "hour": shorter when the emulator's time runs faster (rateLimitFollowsTimeScale). */
    private readonly windowMs = 3_600_000,
  ) {}

  /** Counts one request; returns 0 when allowed, else the seconds to wait. */
  take(id: string): number {
    const now = this.now();
    let window = this.windows.get(id);
    if (!window || now - window.start >= this.windowMs) {
      window = { start: now, count: 0 };
      this.windows.set(id, window);
    }
    window.count++;
    if (window.count <= this.perHour) return 0;
    return Math.max(1, Math.ceil((window.start + this.windowMs - now) / 1000));
  }

  /** The budget of each caller whose hour is running (read-only: for the web console). */
  usage(): { id: string; used: number; left: number; resetsInS: number }[] {
    const now = this.now();
    return [...this.windows]
      .filter(([, window]) => now - window.start < this.windowMs)
      .map(([id, window]) => ({
        id,
        used: window.count,
        left: Math.max(0, this.perHour - window.count),
        resetsInS: Math.ceil((window.start + this.windowMs - now) / 1000),
      }));
  }
}
