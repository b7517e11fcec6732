// One measured command: spawned as a user runs it, with the probe in its Node.js processes and its process
// tree watched in /proc every 25 ms, so its wall time can be split (timeline.ts).
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parentOf, statFields, TICKS_PER_SECOND } from "../processUsage";
import type { Mark, Proc, Timeline } from "./timeline";

const PROBE = path.join(__dirname, "probe.js");

/** The epoch ms of the machine's boot, to 10 ms (/proc/uptime), for process start times. */
function bootAt(): number {
  return Date.now() - Number(fs.readFileSync("/proc/uptime", "utf8").split(" ")[0]) * 1000;
}

/** Every process descending from `root` now, with its start time. */
function descendants(root: number, boot: number): Omit<Proc, "lastSeenAt">[] {
  const stats = new Map<number, string>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      stats.set(Number(entry), fs.readFileSync(`/proc/${entry}/stat`, "utf8"));
    } catch {
      // ended meanwhile
    }
  }
  const descends = (pid: number): boolean => {
    for (let p = pid, depth = 0; p > 1 && depth < 32; depth++) {
      if (p === root) return true;
      const stat = stats.get(p);
      if (!stat) return false;
      p = parentOf(stat);
    }
    return false;
  };
  const out: Omit<Proc, "lastSeenAt">[] = [];
  for (const [pid, stat] of stats) {
    if (!descends(pid)) continue;
    let comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    try {
      comm = path.basename(fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")[0]) || comm;
    } catch {
      // ended meanwhile: keep the kernel's (truncated) name
    }
    out.push({ pid, ppid: parentOf(stat), comm, startAt: boot + (Number(statFields(stat)[19]) * 1000) / TICKS_PER_SECOND });
  }
  return out;
}

export interface CommandRun {
  timeline: Timeline;
  exitCode: number | null;
  output: string;
}

/** Runs `command` to its end and returns what it did when (the probe's marks, its processes) and its output. */
export async function measureCommand(
  command: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; runsProgram: boolean },
): Promise<CommandRun> {
  const marksFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "vplatform-marks-")), "marks.jsonl");
  const boot = bootAt();
  const procs = new Map<string, Proc>();
  const spawnAt = performance.timeOrigin + performance.now();
  const child = spawn(command, args, {
    cwd: opts.cwd,
    env: { ...opts.env, NODE_OPTIONS: `--require ${PROBE}`, VPLATFORM_BENCH_MARKS: marksFile },
  });
  const watch = () => {
    const now = Date.now();
    for (const p of descendants(child.pid ?? -1, boot)) {
      const key = `${p.pid}@${Math.round(p.startAt)}`;
      procs.set(key, { ...p, lastSeenAt: now });
    }
  };
  const timer = setInterval(watch, 25);
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const exitCode = await new Promise<number | null>((resolve) => child.on("close", resolve));
  const endAt = performance.timeOrigin + performance.now();
  clearInterval(timer);
  const marks: Mark[] = fs.existsSync(marksFile)
    ? fs
        .readFileSync(marksFile, "utf8")
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line))
    : [];
  fs.rmSync(path.dirname(marksFile), { recursive: true, force: true });
  return { timeline: { runsProgram: opts.runsProgram, spawnAt, endAt, marks, procs: [...procs.values()] }, exitCode, output };
}
