/**
 * The platform's time as its answers tell it (the HTTP `Date` header): expiry dates are the platform's
 * business, and its clock need not agree with ours (a skewed host, an emulator on its manual clock).
 * The offset is platform time minus local time at receipt; the header has second resolution, which
 * dates judged in seconds tolerate.
 */
export class PlatformClock {
  #offsetMs?: number;

  /** `localNow` is replaceable in unit tests. */
  constructor(private readonly localNow: () => number = Date.now) {}

  /** Learns the offset from an answer's `Date` header; an absent or unreadable one teaches nothing. */
  observe(dateHeader: string | undefined): void {
    const platformMs = dateHeader === undefined ? Number.NaN : Date.parse(dateHeader);
    if (Number.isFinite(platformMs)) this.#offsetMs = platformMs - this.localNow();
  }

  /** Whether any answer has told the platform's time yet. */
  get known(): boolean {
    return this.#offsetMs !== undefined;
  }

  /** The platform's time in milliseconds since the epoch; the local clock's until an answer tells otherwise. */
  now(): number {
    return this.localNow() + (this.#offsetMs ?? 0);
  }
}
