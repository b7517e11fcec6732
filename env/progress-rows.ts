/**
 * The engine's live display, as `vplatform env` shows it on stderr. The engine appends a resource's latest
 * message to its row and keeps it there once the step is done, so a finished row read
 * "created (2s) vplatform: waiting for VM 'web' to reach running (0s/60s, status starting)", as if still waiting.
 * A finished row shows its outcome alone; a row still in progress keeps its progress, and a failed one its message.
 */

/** The provider's wait progress (provider/reconcile/waitFor.ts): shown live, never a warning or an outcome. */
export const PROGRESS = /^vplatform: (done )?waiting for /;

/** How the engine (display/progress.go, getStepDoneDescription) says a step ended well; "... failed" is not among them. */
const DONE = [
  "created",
  "updated",
  "deleted",
  "replaced",
  "created replacement",
  "deleted original",
  "read",
  "read for replacement",
  "refresh",
  "discarded",
  "discarded original",
  "imported",
  "imported replacement",
];
// "<op>  <type> <name> <done> (<duration>) <message>", the duration as the engine prints a finished one: 0.02s, 2s.
const FINISHED_ROW = new RegExp(`^(.* (?:${DONE.join("|")}) \\((?:\\d+\\.\\d\\d|\\d+)s\\)) (.+)$`);

/** One line of the display, without the progress message of a row whose step has finished. */
export function withoutStaleProgress(line: string): string {
  const m = FINISHED_ROW.exec(line);
  return m && PROGRESS.test(m[2].trim()) ? m[1] : line;
}

/**
 * Passes the engine's output on to `write` line by line through `withoutStaleProgress` (the engine's chunks may
 * end mid-line); `end()` passes on what is left.
 */
export function progressRows(write: (text: string) => void): { write(chunk: string): void; end(): void } {
  let pending = "";
  return {
    write(chunk) {
      const lines = (pending + chunk).split("\n");
      pending = lines.pop() ?? "";
      if (lines.length) write(lines.map((line) => `${withoutStaleProgress(line)}\n`).join(""));
    },
    end() {
      if (pending) write(withoutStaleProgress(pending));
      pending = "";
    },
  };
}
