// Every program and command of the guides and the references runs as printed against one emulator (the README's
// run in test/e2e/package.test.ts): each TypeScript program previewed and brought up under the real engine (an
// inline program made of the block's text, compiled as written), each environment file through
// `npx vplatform env`, each shell block in a project where the package is installed, its placeholders filled from
// the emulator (endpoint, key, CA) and a few other values named below, the Pulumi YAML program through the plugin,
// the stock project file with `pulumi preview`. A block that needs a toolchain or a server of its own (Go, Python,
// PostgreSQL, a policy pack's install, a class of 30 brought up) is run by the test named for it, which reads that
// page; a class's programs and files are previewed here (`preview` in the fence: 30 copies). Output samples are not
// run. A new block is run here, or named for its test, or this test fails.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import got from "got";
import ts from "typescript";
import { parse } from "yaml";
import type { LocalWorkspace, Stack } from "@pulumi/pulumi/automation";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { volumeWith, type TestVolume } from "../../emulator/services/volume-browser/testVolume";
import { createLocalStack, findRepoRoot } from "../../env/local-stack";
import { type Block, fencedBlocks } from "../../scripts/markdownBlocks";
import { e2eWorkDir } from "./harness";

const root = findRepoRoot();
const PAGES = ["docs/guides", "docs/reference"].flatMap((dir) =>
  fs
    .readdirSync(path.join(root, dir))
    .filter((f) => f.endsWith(".md"))
    .sort()
    .map((f) => `${dir}/${f}`),
);
const blocks = PAGES.flatMap((page) => fencedBlocks(page, fs.readFileSync(path.join(root, page), "utf8")));
const where = (b: Block) => `${b.file}:${b.line}`;

/**
 * Blocks run by another test: the page and block, the test, what in that test shows it runs them (the page it
 * reads, or the same command or entry), and why not here.
 */
const ELSEWHERE: { page: string; lang: string; has: string; test: string; proof: string; why: string }[] = [
  {
    page: "class-labs.md",
    lang: "sh",
    has: "npx vplatform env up class.yaml",
    test: "test/e2e/classLab.test.ts",
    proof: "class-labs.md",
    why: "a term's commands on a class of 5, checked there to be the guide's",
  },
  {
    page: "class-labs.md",
    lang: "sh",
    has: "npx vplatform student reset",
    test: "test/e2e/studentKeys.test.ts",
    proof: '"docs", "guides", "class-labs.md"',
    why: "a student's key of a class's copy, which only a class brought up gives: run there with each copy's key",
  },
  {
    page: "teams-and-gitops.md",
    lang: "bash",
    has: "PULUMI_BACKEND_URL='postgres://",
    test: "test/e2e/gitops-workflow.test.ts",
    proof: "PULUMI_BACKEND_URL: postgres.url",
    why: "a PostgreSQL server: the example workflow's up with its state there",
  },
  {
    page: "teams-and-gitops.md",
    lang: "bash",
    has: "--policy-pack node_modules/vplatform/policy",
    test: "test/e2e/policy-pack.test.ts",
    proof: '"--policy-pack", "node_modules/vplatform/policy"',
    why: "the policy pack installed with its dependencies",
  },
  ...(["python", "go"] as const).flatMap((language) => {
    const test = language === "go" ? "test/e2e/goProgram.test.ts" : "test/e2e/pythonProgram.test.ts";
    const why = "the language's toolchain and its SDK's build (the same steps, not the guide's text)";
    const page = `${language}.md`;
    return [
      { page, lang: "bash", has: "", test, proof: page, why },
      { page, lang: "yaml", has: "plugins:", test, proof: page, why },
    ];
  }),
  {
    page: "typescript.md",
    lang: "yaml",
    has: "path: node_modules/vplatform/plugin",
    test: "test/e2e/pluginFolder.test.ts",
    proof: "plugins:\\n  providers:\\n    - name: vplatform\\n      path: ",
    why: "a project whose Pulumi.yaml names the package's plugin folder",
  },
];
/** Languages whose blocks show output or a diagram, not something to run. */
const SHOWN = new Set(["text", "markdown", "mermaid"]);

/**
 * Python and Go programs need their toolchain and the SDK's build, and a whole Pulumi YAML project (a class of
 * copies) is brought up by its example's test: a page shows one only verbatim from an example that a test runs
 * under the engine (the example, then the test that copies its directory).
 */
const RUN_EXAMPLES: Record<string, string> = {
  "examples/python-lab/__main__.py": "test/e2e/pythonProgram.test.ts",
  "examples/go-lab/main.go": "test/e2e/goProgram.test.ts",
  "examples/python-class/__main__.py": "test/e2e/classProgram.test.ts",
  "examples/go-class/main.go": "test/e2e/classProgram.test.ts",
  "examples/yaml-class/Pulumi.yaml": "test/e2e/classProgram.test.ts",
};
const exampleOf = (block: Block) =>
  Object.keys(RUN_EXAMPLES).find((file) => fs.readFileSync(path.join(root, file), "utf8").includes(block.text.trim()));

/** The values a reader puts in for the placeholders the pages print. */
function placeholders(emulator: RunningEmulator): Record<string, string> {
  return {
    "https://platform.example.com": emulator.url,
    "<key>": emulator.apiKey,
    "<address of the pipeline's runner>": "127.0.0.1",
    "<a password for the ci user>": "ci-password-snippets",
    "<the token the webhook's receiver expects>": "hook-token-snippets",
  };
}

type Role =
  | { run: "program" | "environment"; upToo: boolean }
  | { run: "helper" | "shell" | "pulumi-yaml" | "stock-project" | "setup" }
  | { elsewhere: (typeof ELSEWHERE)[number] }
  | { shown: true }
  | { example: string }
  | { unknown: string };

/** What is done with a block, from its language, its text and its page. */
function roleOf(block: Block): Role {
  if (block.flags.includes("partial")) return { shown: true };
  const elsewhere = ELSEWHERE.find((e) => block.file.endsWith(`/${e.page}`) && e.lang === block.lang && block.text.includes(e.has));
  if (elsewhere) return { elsewhere };
  if (SHOWN.has(block.lang)) return { shown: true };
  if (block.lang === "python" || block.lang === "go") {
    const example = exampleOf(block);
    return example
      ? { example }
      : { unknown: `a ${block.lang} program not found verbatim in an example a test runs (${Object.keys(RUN_EXAMPLES).join(", ")})` };
  }
  const upToo = !block.flags.includes("preview");
  if (block.lang === "ts" || block.lang === "typescript")
    return block.text.includes('from "vplatform/emulator"') ? { run: "helper" } : { run: "program", upToo };
  if (block.lang === "bash" || block.lang === "sh") return isSetupOfNextProgram(block) ? { run: "setup" } : { run: "shell" };
  if (block.lang === "yaml" || block.lang === "yml") {
    const doc = parse(block.text) as Record<string, unknown>;
    if (doc.vms || doc.vnets || doc.labs || doc.users || doc.webhooks) return { run: "environment", upToo };
    if (doc.main === "node_modules/vplatform/dist/env/main.js") return { run: "stock-project" };
    // A whole project (name, runtime) is an example's; a program's resources alone run here under a project header.
    if (doc.runtime) {
      const example = exampleOf(block);
      return example ? { example } : { unknown: "a Pulumi YAML project not found verbatim in an example a test runs" };
    }
    if (doc.resources) return { run: "pulumi-yaml" };
  }
  return { unknown: `a ${block.lang} block this test does not know how to run: run it here, or name its test in ELSEWHERE` };
}

/** A shell block of `pulumi config set` and `export` lines only, before a program: its stack's set-up. */
const isSetupOfNextProgram = (block: Block) =>
  block.text
    .split("\n")
    .filter((l) => l.trim() && !l.trim().startsWith("#"))
    .every((l) => /^(pulumi config set |export \w+=)/.test(l));

let emulator: RunningEmulator;
let volume: TestVolume;
let project: string;
let work: string;
let shellEnv: NodeJS.ProcessEnv;

/** The block's text with the placeholders filled; in a shell block, one it does not know fails the test, naming it. */
function filled(block: Block): string {
  let text = block.text;
  for (const [placeholder, value] of Object.entries(placeholders(emulator))) text = text.split(placeholder).join(value);
  if (block.lang !== "bash" && block.lang !== "sh") return text;
  const commands = text.replace(/(^|\s)#.*$/gm, ""); // a comment's `<s>` is prose
  const left = commands.match(/<[a-z][^<>\n]*>/g) ?? [];
  if (left.length) throw new Error(`${where(block)}: no value for the placeholders ${left.join(", ")}: add them to placeholders()`);
  return text;
}

const run = (file: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
    execFile(file, args, { ...opts, maxBuffer: 64 << 20 }, (err, stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    ),
  );

/** A shell block, as a user pastes it into bash in the project (stopping at the first failing command). */
async function shell(block: Block, cwd = project): Promise<void> {
  const r = await run("bash", ["-euo", "pipefail", "-c", filled(block)], { cwd, env: shellEnv });
  expect({ block: where(block), code: r.code, stderr: r.code ? r.stderr.slice(-3000) : "" }).toEqual({
    block: where(block),
    code: 0,
    stderr: "",
  });
}

/**
 * The environment file a page's block is: named as the first shell block after it names one (`usedLater`: that
 * block's commands need it up), else after its page.
 */
function environmentFileOf(block: Block): { file: string; stack: string; usedLater: boolean } {
  const later = blocks.filter((b) => b.file === block.file && b.line > block.line && (b.lang === "bash" || b.lang === "sh"));
  for (const b of later) {
    const named = /npx vplatform env \w+ (\S+\.yaml) --stack (\S+)/.exec(b.text);
    if (named) return { file: named[1], stack: named[2], usedLater: true };
  }
  const name = `${path.basename(block.file, ".md")}-${block.line}`;
  return { file: `environments/${name}.yaml`, stack: name, usedLater: false };
}

async function vplatformEnv(args: string[]): Promise<void> {
  const r = await run("npx", ["vplatform", "env", ...args], { cwd: project, env: shellEnv });
  expect({
    command: `npx vplatform env ${args.join(" ")}`,
    code: r.code,
    errors: r.code ? `${r.stdout.slice(-2000)}\n${r.stderr.slice(-2000)}` : "",
  }).toEqual({
    command: `npx vplatform env ${args.join(" ")}`,
    code: 0,
    errors: "",
  });
}

/** A TypeScript program: the block compiled as written (CommonJS), run by the engine as an inline program. */
async function runProgram(block: Block, upToo: boolean, setup?: Block): Promise<void> {
  const name = `${path.basename(block.file, ".md")}-${block.line}`;
  const dir = path.join(work, name);
  fs.mkdirSync(dir, { recursive: true });
  const js = ts.transpileModule(filled(block), {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
  }).outputText;
  const file = path.join(dir, "program.js");
  fs.writeFileSync(file, js);
  const stack = await createLocalStack({
    stackName: name,
    stateDir: path.join(work, "state"),
    connection: { endpoint: emulator.url, apiKey: emulator.apiKey, caCert: emulator.caCert },
    program: { projectName: "snippets", workDir: dir, fn: async () => ({ ...require(file) }) },
  });
  // The set-up the page prints before the program (`pulumi config set …`, `export …`), in its workspace.
  const env: Record<string, string> = {};
  if (setup) {
    const lines = filled(setup).split("\n");
    for (const l of lines) {
      const exported = /^export (\w+)=(\S+)/.exec(l);
      if (exported) env[exported[1]] = exported[2];
    }
    const config = lines.filter((l) => l.startsWith("pulumi config set ")).join("\n");
    if (config) await configure(setup, config, dir, stack);
  }
  Object.assign(process.env, env);
  const output: string[] = [];
  const opts = { onOutput: (s: string) => output.push(s), color: "never" as const };
  /** The operation's name, or what the engine said when it failed. */
  const said = (op: Promise<unknown>, name: string) =>
    op.then(
      () => name,
      (e: Error) => `${e.message}\n${output.join("")}`.slice(-3000),
    );
  try {
    if (!upToo) expect(await said(stack.preview(opts), "preview")).toBe("preview");
    else {
      const up = await said(stack.up(opts), "up");
      // Programs of several pages declare the same names (a VM `web`): each leaves the platform as it found it,
      // also when its up failed.
      const destroyed = await said(stack.destroy(opts), "destroy");
      expect(up).toBe("up");
      expect(destroyed).toBe("destroy");
    }
  } finally {
    for (const key of Object.keys(env)) delete process.env[key];
  }
}

/** The page's `pulumi config set` lines, run in the program's workspace (its stack selected there). */
async function configure(setup: Block, config: string, dir: string, stack: Stack): Promise<void> {
  const workspace = stack.workspace as LocalWorkspace;
  const r = await run("bash", ["-euo", "pipefail", "-c", config], {
    cwd: dir,
    env: { ...shellEnv, ...workspace.envVars, PULUMI_HOME: workspace.pulumiHome! },
  });
  expect({ setup: where(setup), code: r.code, stderr: r.code ? r.stderr : "" }).toEqual({ setup: where(setup), code: 0, stderr: "" });
}

beforeAll(async () => {
  volume = volumeWith({ "images/ubuntu.iso": 8192 }); // the NAS guide's file
  emulator = await startEmulator({ port: 0, timeScale: 0.01, quiet: true, rateLimitPerHour: 1_000_000, volumes: { nas: volume.dir } });
  work = e2eWorkDir("snippets-");
  // A user's project with the package installed: `npx vplatform` finds its bin.
  project = fs.mkdtempSync(path.join(os.tmpdir(), "snippets-project-"));
  fs.writeFileSync(path.join(project, "package.json"), '{ "private": true }\n');
  fs.mkdirSync(path.join(project, "node_modules", ".bin"), { recursive: true });
  fs.mkdirSync(path.join(project, "node_modules", "@pulumi"), { recursive: true });
  fs.mkdirSync(path.join(project, "environments"));
  fs.symlinkSync(root, path.join(project, "node_modules", "vplatform"), "dir");
  fs.symlinkSync(path.join(root, "node_modules", "@pulumi", "pulumi"), path.join(project, "node_modules", "@pulumi", "pulumi"), "dir");
  const bin = path.join(project, "node_modules", ".bin", "vplatform");
  fs.writeFileSync(bin, `#!/bin/sh\nexec "${process.execPath}" "${path.join(root, "dist", "env", "cli.js")}" "$@"\n`, { mode: 0o755 });
  fs.writeFileSync(path.join(project, "ca.pem"), emulator.caCert);
  // The guides' commands name environments/dev.yaml: the README's YAML twin.
  const readme = fencedBlocks("README.md", fs.readFileSync(path.join(root, "README.md"), "utf8"));
  fs.writeFileSync(path.join(project, "environments", "dev.yaml"), readme.find((b) => b.lang === "yaml" && /^vnets:/m.test(b.text))!.text);
  const keep = ["PATH", "HOME", "VPLATFORM_PULUMI_ROOT", "NODE_OPTIONS"];
  shellEnv = {
    ...Object.fromEntries(keep.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]])),
    PULUMI_HOME: path.join(project, ".pulumi-home"),
    PULUMI_SKIP_UPDATE_CHECK: "true",
    VPLATFORM_ENDPOINT: emulator.url,
    VPLATFORM_API_KEY: emulator.apiKey,
    VPLATFORM_CA_CERT: emulator.caCert,
  };
});
afterAll(async () => {
  await emulator?.close();
  volume?.remove();
  if (!process.env.VPLATFORM_KEEP_E2E) for (const dir of [project, work]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe(`every block of the guides and references is run here, by its test, or is output (${blocks.length} blocks)`, () => {
  test("each block has its runner", () => {
    expect(blocks.flatMap((b) => ("unknown" in roleOf(b) ? [`${where(b)}: ${(roleOf(b) as { unknown: string }).unknown}`] : []))).toEqual(
      [],
    );
  });
  test.each(Object.entries(RUN_EXAMPLES))("%s, shown verbatim, is run by %s", (example, test) => {
    expect(blocks.some((b) => "example" in roleOf(b) && (roleOf(b) as { example: string }).example === example)).toBe(true);
    expect(fs.readFileSync(path.join(root, test), "utf8")).toContain(path.basename(path.dirname(example)));
  });
  test.each(ELSEWHERE.map((e) => [e.test, e] as const))("%s runs its page's blocks, reading the page", (_test, e) => {
    expect(blocks.some((b) => "elsewhere" in roleOf(b) && (roleOf(b) as { elsewhere: unknown }).elsewhere === e)).toBe(true);
    expect(fs.readFileSync(path.join(root, e.test), "utf8")).toContain(e.proof);
  });
});

/** Each page's runnable blocks in order; a program's set-up block is given with it. */
const pagesToRun = PAGES.map((page) => {
  const own = blocks.filter((b) => b.file === page);
  return { page, own };
}).filter(({ own }) => own.some((b) => "run" in roleOf(b)));

describe.each(pagesToRun.map(({ page, own }) => [page, own] as const))("%s, as printed", (_page, own) => {
  test(own
    .filter((b) => "run" in roleOf(b))
    .map((b) => `${b.lang}:${b.line} ${(roleOf(b) as { run: string }).run}`)
    .join(", "), async () => {
    let setup: Block | undefined;
    /** The page's environments brought up: destroyed at its end (a later page declares the same names). */
    const upStacks: { file: string; stack: string }[] = [];
    try {
      for (const block of own) {
        const role = roleOf(block);
        if (!("run" in role)) continue;
        switch (role.run) {
          case "setup":
            setup = block;
            break;
          case "program":
            await runProgram(block, role.upToo, setup);
            setup = undefined;
            break;
          case "environment": {
            const { file, stack, usedLater } = environmentFileOf(block);
            fs.mkdirSync(path.dirname(path.join(project, file)), { recursive: true });
            fs.writeFileSync(path.join(project, file), block.text);
            const existing = await existingVmsFor(block);
            if (role.upToo) upStacks.push({ file, stack });
            await vplatformEnv([role.upToo ? "up" : "preview", file, "--stack", stack]);
            for (const key of existing) await platform("DELETE", `/v4/vms/${key}`);
            // One no later command uses goes now: a later block of the page may declare the same names.
            if (role.upToo && !usedLater) {
              upStacks.pop();
              await vplatformEnv(["destroy", file, "--stack", stack]);
            }
            break;
          }
          case "shell":
            await shell(block);
            break;
          case "helper":
            await runHelper(block);
            break;
          case "pulumi-yaml":
            await runPulumiYaml(block);
            break;
          case "stock-project":
            await runStockProject(block);
            break;
        }
      }
    } finally {
      // Also after a failure: the next page declares the same names, and its own failure is then its own.
      for (const { file, stack } of upStacks) await vplatformEnv(["destroy", file, "--stack", stack]);
    }
  }, 600_000);
});

/** Calls the platform's API with the emulator's key. */
const platform = (method: "POST" | "DELETE", apiPath: string, json?: object) =>
  got(`${emulator.url}/api${apiPath}`, {
    method,
    json,
    headers: { authorization: `Bearer ${emulator.apiKey}` },
    https: { certificateAuthority: emulator.caCert },
  }).json<{ $key: string }>();

/** The VMs an environment file clones and does not declare (`cloneFrom: { vm: golden }`: an existing one), made first; their keys. */
async function existingVmsFor(block: Block): Promise<string[]> {
  const doc = parse(block.text) as { vms?: { name: string }[]; labs?: { vms?: { name: string }[] }[] };
  const declared = new Set([...(doc.vms ?? []), ...(doc.labs ?? []).flatMap((l) => l.vms ?? [])].map((v) => v.name));
  const cloned = [...block.text.matchAll(/cloneFrom: \{ vm: ([\w-]+) \}/g)].map((m) => m[1]).filter((n) => !declared.has(n));
  return Promise.all([...new Set(cloned)].map(async (name) => String((await platform("POST", "/v4/vms", { name, ram: 2048 })).$key)));
}

/** The emulator guide's helper: compiled as written, called with a run that previews an environment under it. */
async function runHelper(block: Block): Promise<void> {
  const dir = path.join(work, `helper-${block.line}`);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "helper.js");
  fs.writeFileSync(
    file,
    ts.transpileModule(block.text, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText,
  );
  const { withEmulator } = require(file) as { withEmulator(run: (env: NodeJS.ProcessEnv) => Promise<void>): Promise<void> };
  fs.writeFileSync(path.join(project, "environments", "helper.yaml"), "vnets:\n  - { name: helper-net, network: 10.70.0.0/24 }\n");
  await withEmulator(async (given) => {
    const r = await run("npx", ["vplatform", "env", "up", "environments/helper.yaml", "--stack", "helper"], {
      cwd: project,
      env: { ...shellEnv, ...given },
    });
    expect({ code: r.code, stderr: r.code ? r.stderr.slice(-2000) : "" }).toEqual({ code: 0, stderr: "" });
  });
}

/** A Pulumi YAML program: the block under a project header naming the yaml runtime, up through the plugin. */
async function runPulumiYaml(block: Block): Promise<void> {
  const dir = path.join(work, `yaml-${block.line}`);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: snippets-yaml-${block.line}\nruntime: yaml\n${block.text}`);
  const stack = await createLocalStack({
    stackName: `yaml-${block.line}`,
    stateDir: path.join(work, "state"),
    connection: { endpoint: emulator.url, apiKey: emulator.apiKey, caCert: emulator.caCert },
    workDir: dir,
  });
  const output: string[] = [];
  const opts = { onOutput: (s: string) => output.push(s), color: "never" as const };
  for (const op of ["up", "destroy"] as const)
    expect(
      await stack[op](opts).then(
        () => op,
        (e: Error) => `${e.message}\n${output.join("")}`.slice(-3000),
      ),
    ).toBe(op);
}

/** The stock project file: in the user's project, `pulumi preview --stack dev` provisions environments/dev.yaml. */
async function runStockProject(block: Block): Promise<void> {
  fs.writeFileSync(path.join(project, "Pulumi.yaml"), block.text);
  try {
    const state = path.join(project, ".stock-state");
    fs.mkdirSync(state, { recursive: true });
    const env = { ...shellEnv, PULUMI_BACKEND_URL: `file://${state}?metadata=skip`, PULUMI_CONFIG_PASSPHRASE: "" };
    const pulumi = path.join(process.env.VPLATFORM_PULUMI_ROOT ?? path.join(root, ".tools", "pulumi"), "bin", "pulumi");
    expect((await run(pulumi, ["stack", "init", "dev", "--non-interactive"], { cwd: project, env })).code).toBe(0);
    const r = await run(pulumi, ["preview", "--stack", "dev", "--non-interactive"], { cwd: project, env });
    expect({ code: r.code, out: r.code ? `${r.stdout.slice(-2000)}\n${r.stderr.slice(-1000)}` : "" }).toEqual({ code: 0, out: "" });
  } finally {
    fs.rmSync(path.join(project, "Pulumi.yaml"));
  }
}
