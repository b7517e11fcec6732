// The processes of a run, for tests that kill one and check that nothing of it lives on.
import * as fs from "node:fs";

/** Whether a process of this pid exists (a zombie counts until reaped: it holds no resources but its entry). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The variable that marks every process of one run: each process inherits it from the one that started it. */
export const RUN_MARKER = "VPLATFORM_TEST_RUN";

/**
 * The live processes whose environment carries `RUN_MARKER=<marker>`: every process the run started, also those
 * that left its process group (the engine starts its plugins in groups of their own) or were re-parented when
 * their parent died. A zombie's environment reads empty: it is dead and not counted.
 */
export function processesOfRun(marker: string): { pid: number; cmd: string }[] {
  const wanted = `${RUN_MARKER}=${marker}`;
  const found: { pid: number; cmd: string }[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!fs.readFileSync(`/proc/${entry}/environ`, "utf8").split("\0").includes(wanted)) continue;
      const cmd = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").join(" ").trim();
      found.push({ pid: Number(entry), cmd });
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}
