import * as fs from "node:fs";
import * as path from "node:path";
import type { CpuSeconds } from "./figures";

type Role = "engine" | "provider" | "program";
/** Linux's clock ticks per second (`getconf CLK_TCK`), the unit of /proc/<pid>/stat's CPU times. */
export const TICKS_PER_SECOND = 100;

/**
 * What the processes the engine starts for this process cost while an
 * operation runs (descendants only: other runs on the machine do not count),
 * sampled from /proc every 200 ms: each one's CPU time, by role (the `pulumi`
 * engine, the dynamic providers, the language host and the program), the
 * providers' peak resident memory (VmHWM), and this process's own CPU time
 * (the emulator it embeds). A process's CPU after its last sample is lost:
 * under 200 ms each.
 */
export class ProcessUsage {
  /** Role of each process seen (null: not a descendant), decided once, keyed by pid and start time (pids are reused). */
  #roles = new Map<string, Role | null>();
  #startTicks = new Map<string, number>();
  #lastTicks = new Map<string, number>();
  #peakKiB = 0;
  #ownStart = process.cpuUsage();
  #timer?: NodeJS.Timeout;

  start(): void {
    this.#peakKiB = 0;
    this.#startTicks.clear();
    this.#lastTicks.clear();
    this.#ownStart = process.cpuUsage();
    this.#sample(true);
    this.#timer = setInterval(() => this.#sample(false), 200);
  }

  /** Peak MiB of the providers (0 where /proc is not available) and CPU seconds by role since start(). */
  stop(): { peakMiB: number; cpu: CpuSeconds } {
    clearInterval(this.#timer);
    this.#sample(false);
    const cpu: CpuSeconds = { engine: 0, provider: 0, program: 0, emulator: 0 };
    for (const [id, ticks] of this.#lastTicks) {
      const role = this.#roles.get(id);
      if (role) cpu[role] += (ticks - (this.#startTicks.get(id) ?? 0)) / TICKS_PER_SECOND;
    }
    const own = process.cpuUsage(this.#ownStart);
    cpu.emulator = (own.user + own.system) / 1e6;
    return { peakMiB: Math.round(this.#peakKiB / 1024), cpu };
  }

  #sample(atStart: boolean): void {
    let pids: number[];
    try {
      pids = fs
        .readdirSync("/proc")
        .filter((p) => /^\d+$/.test(p))
        .map(Number);
    } catch {
      return;
    }
    for (const pid of pids) {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
        const id = processId(pid, stat);
        const role = this.#role(pid, id, stat);
        if (!role) continue;
        if (atStart) this.#startTicks.set(id, cpuTicks(stat));
        this.#lastTicks.set(id, cpuTicks(stat));
        if (role !== "provider") continue;
        const hwm = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
        if (hwm) this.#peakKiB = Math.max(this.#peakKiB, Number(hwm[1]));
      } catch {
        // the process ended meanwhile
      }
    }
  }

  #role(pid: number, id: string, stat: string): Role | null {
    const known = this.#roles.get(id);
    if (known !== undefined) return known;
    const role = pid !== process.pid && this.#descends(stat) ? roleOf(fs.readFileSync(`/proc/${pid}/cmdline`, "utf8")) : null;
    this.#roles.set(id, role);
    return role;
  }

  #descends(stat: string): boolean {
    const parent = parentOf(stat);
    if (parent === process.pid) return true;
    if (parent <= 1) return false;
    const parentStat = fs.readFileSync(`/proc/${parent}/stat`, "utf8");
    const known = this.#roles.get(processId(parent, parentStat));
    return known === undefined ? this.#descends(parentStat) : known !== null;
  }
}

/** The fields of /proc/<pid>/stat after the command's closing parenthesis (which may itself hold spaces). */
export const statFields = (stat: string) => stat.slice(stat.lastIndexOf(")") + 2).split(" ");
export const parentOf = (stat: string) => Number(statFields(stat)[1]);
/** A process's pid and start time (field 22 of stat): unique while the machine runs, where a pid alone is reused. */
const processId = (pid: number, stat: string) => `${pid}@${statFields(stat)[19]}`;
/** utime + stime (fields 14 and 15 of stat, 12 and 13 after the command). */
const cpuTicks = (stat: string) => Number(statFields(stat)[11]) + Number(statFields(stat)[12]);

function roleOf(cmdline: string): Role {
  const argv = cmdline.split("\0");
  if (cmdline.includes("dynamic-provider") || cmdline.includes("pulumi-resource-")) return "provider";
  if (path.basename(argv[0]) === "pulumi") return "engine";
  return "program";
}
