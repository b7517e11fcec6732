// examples/python-lab: a Python program (runtime: python, our tools/pulumi-language-python) on the generated
// Python SDK (sdk-python/, built into a wheel and installed with pip into a fresh virtualenv by the set-up, once per
// change of the SDK: VPLATFORM_PYTHON_SDK), served by the resource plugin, under the real engine against the emulator.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { findRepoRoot } from "../../env/local-stack";
import { startE2e, type E2eContext } from "./harness";
import { setUpPythonSdk } from "./setUpSdks";
import { labLifecycle } from "./labProgram";

const run = promisify(execFile);
const root = findRepoRoot();
let ctx: E2eContext;
let projectDir: string;

beforeAll(async () => {
  // The project as a user has it: the example's files and Pulumi.yaml's `virtualenv: venv`, the set-up's fresh
  // virtualenv that pip installed the SDK's wheel into (pulumi and the rest from the set-up's copy of PyPI's wheels).
  const base = path.join(root, ".e2e-work");
  fs.mkdirSync(base, { recursive: true });
  projectDir = fs.mkdtempSync(path.join(base, "python-lab-"));
  fs.cpSync(path.join(root, "examples", "python-lab"), projectDir, { recursive: true });
  fs.symlinkSync(path.join(setUpPythonSdk(), "venv"), path.join(projectDir, "venv"), "dir");
  ctx = await startE2e("python-lab", { projectDir });
}, 120_000);
afterAll(async () => {
  await ctx?.dispose();
  if (projectDir) fs.rmSync(projectDir, { recursive: true, force: true });
});

describe("the Python SDK's distribution (scripts/build-python-sdk.sh, run by the set-up)", () => {
  const version = require("../../package.json").version;
  test("is a wheel and an sdist named as pip expects", () => {
    expect(fs.readdirSync(path.join(setUpPythonSdk(), "dist")).sort()).toEqual([
      `pulumi_vplatform-${version}-py3-none-any.whl`,
      `pulumi_vplatform-${version}.tar.gz`,
    ]);
  });

  test("the wheel installed the SDK and pulumi at the engine's release into the program's virtualenv", async () => {
    const python = path.join(projectDir, "venv/bin/python");
    const { stdout } = await run(python, [
      "-c",
      "import importlib.metadata as m; print(m.version('pulumi'), m.version('pulumi_vplatform'))",
    ]);
    expect(stdout.trim()).toBe(`${require("@pulumi/pulumi/package.json").version} ${version}`);
  }, 60_000);
});

describe("the Python lab program under the real engine: preview, up, no changes, refresh, update, bad input, destroy", () => {
  labLifecycle("py", () => ctx, { cpuCores: "Python: cpu_cores", guide: "docs/guides/python.md" });
});

describe("docs/guides/python.md", () => {
  test("shows the program this file runs (examples/python-lab/__main__.py) verbatim", () => {
    const guide = fs.readFileSync(path.join(root, "docs", "guides", "python.md"), "utf8");
    const program = fs.readFileSync(path.join(root, "examples/python-lab/__main__.py"), "utf8");
    expect(guide).toContain(`\`\`\`python\n${program.trimEnd()}\n\`\`\``);
  });
});
