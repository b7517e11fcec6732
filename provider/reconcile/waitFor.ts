/** Polling with capped exponential backoff and progress lines the engine shows. */
import { showProgress } from "../client/engineLog";
import { currentDeadline } from "../client/operationDeadline";

export interface PollOptions {
  timeoutSec: number;
  /** What we wait for, e.g. "VM 'web' to reach running". */
  label: string;
  /** Name of the `timeouts` input that raises this limit, for the error text. */
  timeoutInput?: string;
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** Minimum seconds between two progress lines when nothing changes. */
  progressEverySec?: number;
  clock?: Clock;
}

export interface Clock {
  now(): number;
  /** Resolves after `ms`, or at once when `cancel` aborts (its timer then cleared). */
  sleep(ms: number, cancel?: AbortSignal): Promise<void>;
  log(line: string): void;
  /** How a wait is going: shown on the resource while it works, not kept with the run's diagnostics. */
  progress(line: string): void;
}

/** console lines reach the engine from a dynamic provider; pulumi.log does not (engineLog.ts). */
export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, cancel) =>
    new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      cancel?.addEventListener(
        "abort",
        () => {
          clearTimeout(timer);
          resolve();
        },
        { once: true },
      );
    }),
  log: (line) => console.log(line),
  progress: showProgress,
};

/** "vplatform: waiting for VM 'web' to reach running (3s/600s, status starting)" */
export const progressLine = (label: string, elapsedSec: number, limitSec: number, state: string): string =>
  `vplatform: waiting for ${label} (${elapsedSec}s/${Math.round(limitSec)}s, ${state})`;

/**
 * The last progress line of a wait that showed some: the engine's display keeps a resource's latest line on its row
 * until the whole run ends, so without it a finished row of the stock `pulumi up` still read "waiting for ...".
 */
export const doneLine = (label: string, elapsedSec: number): string => `vplatform: done waiting for ${label} (${elapsedSec}s)`;

export class WaitTimeoutError extends Error {
  constructor(
    message: string,
    readonly lastState: string,
  ) {
    super(message);
    this.name = "WaitTimeoutError";
  }
}

/** Delays 200, 300, 450 ... ms, capped. */
export function* backoffDelays(initialMs = 200, maxMs = 3000, factor = 1.5): Generator<number> {
  let delay = initialMs;
  for (;;) {
    yield Math.min(delay, maxMs);
    delay = Math.min(delay * factor, maxMs);
  }
}

/** When a wait that started at `started` must end, and the error it then ends with. */
export function waitLimit(
  opts: PollOptions,
  started: number,
): { deadline: number; timedOut(state: string, elapsedSec: number): WaitTimeoutError } {
  // The engine's customTimeouts bound the whole operation, so every wait in it.
  const engine = currentDeadline();
  const engineBound = engine?.bindsWaits && engine.at <= started + opts.timeoutSec * 1000;
  return {
    deadline: engineBound ? engine.at : started + opts.timeoutSec * 1000,
    timedOut(state, elapsed) {
      if (engineBound) {
        return new WaitTimeoutError(
          `vplatform: ${engine.limit} (${engine.seconds}s) ran out after ${elapsed}s waiting for ${opts.label} (last ${state}); raise ${engine.limit} if the platform is just slow`,
          state,
        );
      }
      const hint = opts.timeoutInput ? `; raise timeouts.${opts.timeoutInput} if the platform is just slow` : "";
      return new WaitTimeoutError(`vplatform: timed out after ${opts.timeoutSec}s waiting for ${opts.label} (last ${state})${hint}`, state);
    },
  };
}

/**
 * Calls `probe` until `done(value)` holds; returns that value. `describe`
 * turns a value into the short state shown in progress lines and errors.
 */
export async function pollUntil<T>(
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  describe: (value: T) => string,
  opts: PollOptions,
): Promise<T> {
  const clock = opts.clock ?? realClock;
  const started = clock.now();
  const { deadline, timedOut } = waitLimit(opts, started);
  const progressEveryMs = (opts.progressEverySec ?? 10) * 1000;
  const delays = backoffDelays(opts.initialDelayMs, opts.maxDelayMs);
  let lastShown = "";
  let lastShownAt = started;
  for (;;) {
    const value = await probe();
    if (done(value)) {
      if (lastShown) clock.progress(doneLine(opts.label, Math.round((clock.now() - started) / 1000)));
      return value;
    }
    const state = describe(value);
    const now = clock.now();
    const elapsed = Math.round((now - started) / 1000);
    if (now >= deadline) throw timedOut(state, elapsed);
    if (state !== lastShown || now - lastShownAt >= progressEveryMs) {
      clock.progress(progressLine(opts.label, elapsed, (deadline - started) / 1000, state));
      lastShown = state;
      lastShownAt = now;
    }
    const delay = delays.next().value as number;
    await clock.sleep(Math.max(0, Math.min(delay, deadline - now)));
  }
}
