// examples/python-lab: a Python program (runtime: python, our tools/pulumi-language-python) on the generated
// Python SDK (sdk-python/, built into a wheel and installed with pip into a fresh virtualenv by the set-up, once per
// change of the SDK: VPLATFORM_PYTHON_SDK), served by the resource plugin, under the real engine against the emulator.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { findRepoRoot } from "../../env/local-stack";
import type { LocalWorkspace } from "@pulumi/pulumi/automation";
import { collect, startE2e, type E2eContext } from "./harness";
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
  // The vplatform package as `npm install` puts it in a project: Pulumi.yaml names its plugin directory.
  fs.symlinkSync(path.join(root, "node_modules"), path.join(projectDir, "node_modules"), "dir");
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

describe("Node.js, which runs the plugin directory whatever the program's language", () => {
  /** A preview with only these directories on the engine's PATH (the engine's own, with the language hosts, last). */
  async function previewWithPath(...dirs: string[]): Promise<string> {
    const ws = ctx.stack.workspace as LocalWorkspace;
    const saved = ws.envVars.PATH;
    ws.envVars.PATH = [...dirs, path.join(root, ".tools", "pulumi", "bin")].join(path.delimiter);
    try {
      return await ctx.stack.preview(collect(ctx)).then(
        () => "the preview passed",
        (e: Error) => e.message,
      );
    } finally {
      ws.envVars.PATH = saved;
    }
  }

  test("no node on PATH: the preview fails at once, naming what to install", async () => {
    const failed = await previewWithPath();
    expect(failed).toContain("could not find node on PATH: install Node.js 22 LTS or 24 LTS");
  }, 120_000);

  test("a node too old for the plugin (Node.js 20) first on PATH: the preview fails at once, naming what to install", async () => {
    const node20 = process.env.VPLATFORM_NODE20;
    if (!node20) throw new Error("VPLATFORM_NODE20 (a Node 20 binary) is not set: run through ./dev test (scripts/env.sh installs it)");
    const failed = await previewWithPath(path.dirname(node20));
    expect(failed).toContain("the resource plugin needs Node.js 22.12 or a later 22.x, or 24 or later");
    expect(failed).toMatch(/this is Node\.js 20\.\d+\.\d+ \(/);
    expect(failed).toContain("Install Node.js 22 LTS or 24 LTS");
  }, 120_000);
});

describe("docs/guides/python.md", () => {
  test("shows the program this file runs (examples/python-lab/__main__.py) verbatim", () => {
    const guide = fs.readFileSync(path.join(root, "docs", "guides", "python.md"), "utf8");
    const program = fs.readFileSync(path.join(root, "examples/python-lab/__main__.py"), "utf8");
    expect(guide).toContain(`\`\`\`python\n${program.trimEnd()}\n\`\`\``);
  });

  test("names the plugin directory in Pulumi.yaml as the example this file runs does", () => {
    const guide = fs.readFileSync(path.join(root, "docs", "guides", "python.md"), "utf8");
    const plugins = /```yaml\n(plugins:\n[^`]*)```/.exec(guide)?.[1];
    expect(plugins).toBeDefined();
    expect(fs.readFileSync(path.join(root, "examples/python-lab/Pulumi.yaml"), "utf8")).toContain(plugins);
  });
});
