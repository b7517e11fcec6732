/**
 * A running emulator marks its data directory (`running.json`: its pid and URL) and removes the mark when it
 * stops. Whatever writes the directory offline (`snapshot load`, `--create-api-key`, a second emulator) refuses
 * while the mark names a live process: the running emulator keeps its state in memory and its next compaction
 * would silently undo the write. A mark whose process is gone (the emulator was killed) is stale and ignored.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const RUNNING_FILE = "running.json";

export interface RunningMark {
  pid: number;
  url: string;
}

/** The emulator holding the directory according to its mark, or undefined when none is or its process is gone. */
export function holderOf(mark: unknown, isAlive: (pid: number) => boolean): RunningMark | undefined {
  const m = mark as Partial<RunningMark> | undefined;
  return m && Number.isInteger(m.pid) && isAlive(m.pid!) ? (m as RunningMark) : undefined;
}

/** What to tell someone about to write `dataDir` (`doing`) while `holder` runs on it, and what to do instead. */
export function heldMessage(dataDir: string, holder: RunningMark, doing: string, instead?: string): string {
  return (
    `${dataDir} is in use by the emulator running with pid ${holder.pid} (${holder.url}); cannot ${doing}: ` +
    `it holds the state in memory and would overwrite the change. Stop it first (kill ${holder.pid}) and run this again` +
    `${instead ? `, or ${instead}` : ""}. (If pid ${holder.pid} is no emulator any more, delete ${join(dataDir, RUNNING_FILE)}.)`
  );
}

/** A signal 0 tells whether a process exists without touching it; EPERM means it exists under another user. */
export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readMark(dataDir: string): unknown {
  try {
    return JSON.parse(readFileSync(join(dataDir, RUNNING_FILE), "utf8"));
  } catch {
    return undefined; // none, or torn by a kill mid-write: nobody to name
  }
}

/** Throws the refusal when a live emulator holds `dataDir`. */
export function refuseWhileRunning(dataDir: string, doing: string, instead?: (holder: RunningMark) => string): void {
  const holder = holderOf(readMark(dataDir), processIsAlive);
  if (holder) throw new Error(heldMessage(dataDir, holder, doing, instead?.(holder)));
}

/** Marks `dataDir` as held by this process; the returned function removes the mark (if it is still this process's). */
export function markRunning(dataDir: string, url: string): () => void {
  const file = join(dataDir, RUNNING_FILE);
  writeFileSync(file, `${JSON.stringify({ pid: process.pid, url } satisfies RunningMark)}\n`);
  return () => {
    if ((readMark(dataDir) as Partial<RunningMark> | undefined)?.pid === process.pid) rmSync(file, { force: true });
  };
}
