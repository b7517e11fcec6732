import { execFileSync } from "node:child_process";
import * as path from "node:path";

const envScript = path.join(__dirname, "env.sh");

/** The shell's errexit, nounset and pipefail after sourcing scripts/env.sh with `before` set first. */
function optionsAfterSourcing(before: string): string {
  const script = `${before}\nsource "${envScript}" >/dev/null 2>&1\necho "$-"; shopt -po nounset pipefail || true`;
  return execFileSync("bash", ["-c", script], { encoding: "utf8", env: { ...process.env } });
}

describe("sourcing scripts/env.sh into a shell", () => {
  test("leaves the shell's options as they were: a later failing command does not close an interactive terminal", () => {
    const after = optionsAfterSourcing("set +euo pipefail");
    expect(after.split("\n")[0]).not.toContain("e");
    expect(after).toContain("set +o nounset");
    expect(after).toContain("set +o pipefail");
  }, 120_000);

  test("keeps errexit of a script that sets it alone (pipefail and nounset stay off)", () => {
    const after = optionsAfterSourcing("set -e");
    expect(after.split("\n")[0]).toContain("e");
    expect(after).toContain("set +o pipefail");
  }, 120_000);

  test("keeps strict options a script had set before sourcing it (./dev)", () => {
    const after = optionsAfterSourcing("set -euo pipefail");
    expect(after.split("\n")[0]).toContain("e");
    expect(after).toContain("set -o nounset");
    expect(after).toContain("set -o pipefail");
  }, 120_000);
});
