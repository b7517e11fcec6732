// examples/go-lab: a Go program (runtime: go, built by our tools/pulumi-language-go with `go build`) on the Go SDK
// generated from schema.json (scripts/gen-sdk.sh --go, which the set-up runs once per schema: VPLATFORM_SDK), served
// by the resource plugin, under the real engine against the emulator. Modules come from the Go module proxy through
// Go's module cache (warmed by the set-up's builds of the engine and the SDK).
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { findRepoRoot } from "../../env/local-stack";
import { startE2e, type E2eContext } from "./harness";
import { setUpSdk } from "./setUpSdks";
import { labLifecycle } from "./labProgram";

const run = promisify(execFile);
const root = findRepoRoot();
const { version } = require("../../package.json");
let ctx: E2eContext;
let projectDir: string;
/** The Go SDK's module, as scripts/gen-sdk.sh named it from schema.json's import path. */
const sdkModule = () => /^module (\S+)$/m.exec(fs.readFileSync(path.join(setUpSdk(), "go", "go.mod"), "utf8"))?.[1];

beforeAll(async () => {
  const base = path.join(root, ".e2e-work");
  fs.mkdirSync(base, { recursive: true });
  projectDir = fs.mkdtempSync(path.join(base, "go-lab-"));
  fs.cpSync(path.join(root, "examples", "go-lab"), projectDir, { recursive: true });
  // The vplatform package as `npm install` puts it in a project: Pulumi.yaml names its plugin directory.
  fs.symlinkSync(path.join(root, "node_modules"), path.join(projectDir, "node_modules"), "dir");
  // The guide's require and replace (docs/guides/go.md), to the set-up's SDK.
  const sdk = path.join(setUpSdk(), "go");
  await run("go", ["mod", "edit", `-require=${sdkModule()}@v${version}`, `-replace=${sdkModule()}=${sdk}`], { cwd: projectDir });
  // The set-up's flags: Go's build cache already holds the packages of the Pulumi SDK and ours (scripts/env.sh).
  process.env.GOFLAGS = process.env.VPLATFORM_GOFLAGS;
  ctx = await startE2e("go-lab", { projectDir });
}, 120_000);
afterAll(async () => {
  await ctx?.dispose();
  if (projectDir) fs.rmSync(projectDir, { recursive: true, force: true });
});

describe("the Go lab program under the real engine: preview, up, no changes, refresh, update, bad input, destroy", () => {
  labLifecycle("go", () => ctx, { cpuCores: "Go: CpuCores", guide: "docs/guides/go.md" });
});

describe("docs/guides/go.md", () => {
  test("shows the program this file runs (examples/go-lab/main.go) verbatim", () => {
    const guide = fs.readFileSync(path.join(root, "docs", "guides", "go.md"), "utf8");
    const program = fs.readFileSync(path.join(root, "examples/go-lab/main.go"), "utf8");
    expect(guide).toContain(`\`\`\`go\n${program.trimEnd()}\n\`\`\``);
  });

  test("requires the SDK by the module path schema.json gives it, as this file does", () => {
    const guide = fs.readFileSync(path.join(root, "docs", "guides", "go.md"), "utf8");
    expect(sdkModule()).toBe("github.com/vplatform/pulumi-vplatform/sdk/go");
    expect(guide).toContain(`go mod edit -require=${sdkModule()}@v${version} -replace=${sdkModule()}=<clone>/.tools/sdk/go\n`);
    expect(fs.readFileSync(path.join(root, "examples/go-lab/main.go"), "utf8")).toContain(`vp "${sdkModule()}/vplatform"`);
  });

  test("names the plugin directory in Pulumi.yaml as the example this file runs does", () => {
    const guide = fs.readFileSync(path.join(root, "docs", "guides", "go.md"), "utf8");
    const plugins = /```yaml\n(plugins:\n[^`]*)```/.exec(guide)?.[1];
    expect(plugins).toBeDefined();
    expect(fs.readFileSync(path.join(root, "examples/go-lab/Pulumi.yaml"), "utf8")).toContain(plugins);
  });
});
