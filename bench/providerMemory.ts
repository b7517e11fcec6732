import * as fs from "node:fs";

/**
 * Peak resident memory of the dynamic-provider processes the engine starts
 * for this process (descendants only: other runs on the machine do not
 * count), from /proc/<pid>/status VmHWM, sampled while an operation runs.
 */
export class ProviderMemory {
  #peakKiB = 0;
  #timer?: NodeJS.Timeout;

  start(): void {
    this.#peakKiB = 0;
    this.#timer = setInterval(() => this.#sample(), 100);
  }

  /** Peak MiB since start(); 0 where /proc is not available. */
  stop(): number {
    clearInterval(this.#timer);
    this.#sample();
    return Math.round(this.#peakKiB / 1024);
  }

  #sample(): void {
    let pids: string[];
    try {
      pids = fs.readdirSync("/proc").filter((p) => /^\d+$/.test(p));
    } catch {
      return;
    }
    for (const pid of pids) {
      try {
        if (!fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("dynamic-provider")) continue;
        if (!descendsFrom(pid, process.pid)) continue;
        const hwm = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
        if (hwm) this.#peakKiB = Math.max(this.#peakKiB, Number(hwm[1]));
      } catch {
        // the process ended meanwhile
      }
    }
  }
}

function descendsFrom(pid: string, ancestor: number): boolean {
  for (let p = Number(pid), hops = 0; p > 1 && hops < 20; hops++) {
    if (p === ancestor) return true;
    const stat = fs.readFileSync(`/proc/${p}/stat`, "utf8");
    p = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  }
  return false;
}
