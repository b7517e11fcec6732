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
