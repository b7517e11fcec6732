import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const stepScript = path.join(__dirname, "setup-step.sh");

/** `step` run in bash as scripts/env.sh runs it: its exit code, what it printed on stderr, and its log. */
function runStep(command: string) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "setup-step-"));
  try {
    const r = spawnSync("bash", ["-c", `source "${stepScript}"; ${command}; code=$?; echo "$VPLATFORM_SETUP_LOG"; exit $code`], {
      encoding: "utf8",
      env: { ...process.env, TMPDIR: tmp },
    });
    const log = r.stdout.trim();
    return { code: r.status, stderr: r.stderr, log: fs.existsSync(log) ? fs.readFileSync(log, "utf8") : "" };
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

describe("a set-up step prints one line; its tools' output goes to a log named when it fails", () => {
  test("a step that succeeds: one line with what it did and how long it took, nothing of its output", () => {
    const r = runStep(`step "installing things" bash -c 'echo lots of npm output; echo warnings >&2'`);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^\[setup\] installing things \.\.\. done in \d+ s\n$/);
    expect(r.log).toContain("lots of npm output\nwarnings");
  });

  test("a step that fails: its exit code, the log's path and its last lines", () => {
    const r = runStep(`step "building pulumi" bash -c 'for i in $(seq 1 40); do echo "go: line $i"; done; exit 7'`);
    expect(r.code).toBe(7);
    const lines = r.stderr.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^\[setup\] building pulumi \.\.\. FAILED \(exit 7\); the whole output: \S+vplatform-setup\.\w+; its end:$/);
    expect(lines.slice(1)).toEqual(Array.from({ length: 25 }, (_, i) => `[setup]   go: line ${i + 16}`));
  });
});

describe("the main job's set-up (./dev lab, emulator, bench) makes none of what only the tests need", () => {
  /** The variables scripts/env.sh exports after sourcing it with VPLATFORM_SETUP, and what it printed. */
  const setUp = (setup: string) => {
    const r = spawnSync("bash", ["-c", `source "${path.join(__dirname, "env.sh")}" >/dev/null && env`], {
      encoding: "utf8",
      // A shell that already sourced it (the tests') holds its variables: left out.
      env: {
        ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("VPLATFORM_") || k === "VPLATFORM_CACHE")),
        VPLATFORM_SETUP: setup,
      },
    });
    const names = new Set(r.stdout.split("\n").map((l) => l.split("=")[0]));
    return { code: r.status, stderr: r.stderr, names };
  };
  // Each set by the step that installs or makes it: Node 22 and 20, pyVergeOS, the wheelhouse, the language SDKs.
  const testOnly = [
    "VPLATFORM_NODE22",
    "VPLATFORM_NODE20",
    "VPLATFORM_PYVERGEOS_PYTHON",
    "VPLATFORM_PYTHON_WHEELS",
    "VPLATFORM_SDK",
    "VPLATFORM_PYTHON_SDK",
  ];

  test("main: no second Node, no PyPI, no SDK, no apt (that step is the tests')", () => {
    const r = setUp("main");
    expect(r.code).toBe(0);
    expect(testOnly.filter((v) => r.names.has(v))).toEqual([]);
    expect(r.names.has("VPLATFORM_PULUMI_ROOT")).toBe(true); // the engine is set up
    expect(r.stderr).not.toMatch(/Node (20|22)|Debian|PyPI|SDK/);
  }, 120_000);
});
