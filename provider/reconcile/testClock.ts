import { Clock } from "./waitFor";

/** A clock whose sleep advances virtual time at once; log lines are kept. */
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
  };
}
