import type { Clock } from "./waitFor";
import type { OperationTimeouts } from "../schemas/timeouts";

/** A clock whose sleep advances virtual time at once; log and progress lines are kept. */
export function fakeClock(): Clock & { lines: string[]; sleeps: number[] } {
  let now = 0;
  const lines: string[] = [];
  const sleeps: number[] = [];
  return {
    lines,
    sleeps,
    now: () => now,
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
    log: (line) => lines.push(line),
    progress: (line) => lines.push(line),
  };
}

/**
 * A clock of virtual time whose sleeps end in the order they are due, however
 * many run at once (fakeClock's advance time by each sleep alone). `run` moves
 * time to the next due sleep, each time the program has nothing left to do,
 * until `done` holds.
 */
export function timerClock(): Clock & { run(done: () => boolean): Promise<void> } {
  let now = 0;
  const timers: { at: number; end: () => void }[] = [];
  const idle = () => new Promise<void>((resolve) => setImmediate(resolve));
  return {
    now: () => now,
    sleep: (ms, cancel) =>
      new Promise<void>((resolve) => {
        const timer = { at: now + ms, end: resolve };
        timers.push(timer);
        cancel?.addEventListener("abort", () => {
          const pending = timers.indexOf(timer);
          if (pending >= 0) timers.splice(pending, 1);
          resolve();
        });
      }),
    log: () => {},
    progress: () => {},
    async run(done) {
      for (await idle(); !done() && timers.length > 0; await idle()) {
        timers.sort((a, b) => a.at - b.at);
        const next = timers.shift()!;
        now = Math.max(now, next.at);
        next.end();
      }
    },
  };
}

/** Short limits for unit tests (virtual time, so nothing actually waits). */
export const DEFAULT_TEST_TIMEOUTS: OperationTimeouts = {
  create: 60,
  update: 60,
  clone: 60,
  snapshot: 60,
  restore: 60,
  powerChange: 60,
  delete: 60,
  gracefulShutdown: 30,
  forcedShutdown: 10,
  reboot: 60,
  hotplug: 60,
};
