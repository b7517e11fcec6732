/**
 * When delayed state transitions (a VM starting, a drive hotplugging...) happen. The real-time clock
 * runs them on timers, their platform durations multiplied by the time scale; the manual clock (moto's
 * state manager) holds them until a test advances it, so a test sees every intermediate state and
 * never sleeps.
 */
export interface TransitionClock {
  readonly mode: "real" | "manual";
  /** The platform's "now" in milliseconds since the epoch: every timestamp and expiry the emulator judges uses it. */
  now(): number;
  /** Runs `fn` after `ms` of platform time (not sooner than `minRealMs` of real time); returns a cancel function. */
  schedule(ms: number, fn: () => void, minRealMs?: number): () => void;
  pending(): number;
  cancelAll(): void;
}

export class RealTimeClock implements TransitionClock {
  readonly mode = "real";
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(private readonly timeScale: number) {}

  now(): number {
    return Date.now();
  }

  schedule(ms: number, fn: () => void, minRealMs = 0): () => void {
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        fn();
      },
      Math.max(0, minRealMs, Math.round(ms * this.timeScale)),
    );
    this.timers.add(timer);
    return () => {
      clearTimeout(timer);
      this.timers.delete(timer);
    };
  }

  pending(): number {
    return this.timers.size;
  }

  cancelAll(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}

interface Transition {
  due: number;
  order: number;
  fn: () => void;
}

export class ManualClock implements TransitionClock {
  readonly mode = "manual";
  /** Platform milliseconds advanced so far. */
  private elapsed = 0;
  private order = 0;
  private queue: Transition[] = [];

  /** `startMs`: the platform's time when the clock was made (the wall time by default). */
  constructor(private readonly startMs = Date.now()) {}

  /** Only advancing moves it: a key's expiry or a schedule's next run is reached by advancing, never by waiting. */
  now(): number {
    return this.startMs + this.elapsed;
  }

  schedule(ms: number, fn: () => void): () => void {
    const transition = { due: this.elapsed + Math.max(0, ms), order: this.order++, fn };
    this.queue.push(transition);
    return () => {
      this.queue = this.queue.filter((t) => t !== transition);
    };
  }

  pending(): number {
    return this.queue.length;
  }

  /** Platform milliseconds from now to each pending transition, soonest first. */
  dueIn(): number[] {
    return this.sorted().map((t) => t.due - this.elapsed);
  }

  get elapsedMs(): number {
    return this.elapsed;
  }

  /**
   * Moves time forward by `ms` (default: to the latest transition pending now), running every transition
   * due by then in time order, also those the run itself schedules within the window; returns how many ran.
   */
  advance(ms?: number): number {
    const until = ms === undefined ? Math.max(this.elapsed, ...this.queue.map((t) => t.due)) : this.elapsed + ms;
    let ran = 0;
    for (let next = this.sorted()[0]; next && next.due <= until; next = this.sorted()[0]) {
      this.queue = this.queue.filter((t) => t !== next);
      this.elapsed = next.due;
      next.fn();
      ran++;
    }
    this.elapsed = until;
    return ran;
  }

  cancelAll(): void {
    this.queue = [];
  }

  private sorted(): Transition[] {
    return [...this.queue].sort((a, b) => a.due - b.due || a.order - b.order);
  }
}
