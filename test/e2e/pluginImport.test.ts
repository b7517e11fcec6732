// `pulumi import` of rows made outside Pulumi, by key, through the plugin, in a Pulumi
// YAML project: the code it generates is pasted into the program, which then previews
// and refreshes with no changes; `get:` reads a row into the program without managing it.
// In a TypeScript project the code comes from our Node.js language host (GenerateProgram) and imports the
// package's one SDK (`vplatform`, schema.json's nodejs packageName): pasted into a project that installed the
// packed tarball, it compiles, and its class takes the imported row over (an alias of the plugin's type; the
// row's state carries the SDK's provider): preview, up and refresh show no change, and destroy deletes the row.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { createLocalStack, findRepoRoot } from "../../env/local-stack";
import { collect, startE2e, type E2eContext } from "./harness";

const GiB = 1024 ** 3;
const HEADER = "name: plugin-import\nruntime: yaml\n";
let ctx: E2eContext;
let projectDir: string;
const keys: Record<string, string> = {};
const changed = (summary: Record<string, number | undefined>) => Object.keys(summary).filter((k) => k !== "same" && summary[k]);
const writeProgram = (text: string) => fs.writeFileSync(path.join(projectDir, "Pulumi.yaml"), HEADER + text);

beforeAll(async () => {
  const base = path.join(findRepoRoot(), ".e2e-work");
  fs.mkdirSync(base, { recursive: true });
  projectDir = fs.mkdtempSync(path.join(base, "plugin-import-project-"));
  writeProgram("resources: {}\n");
  ctx = await startE2e("plugin-import", { projectDir });
}, 120_000);
afterAll(async () => {
  await ctx?.dispose();
  fs.rmSync(projectDir, { recursive: true, force: true });
});

describe("pulumi import through the plugin", () => {
  let generated = "";

  test("a vnet, a VM and its drive created through the API are imported by key, with their code generated", async () => {
    const net = await ctx.api("POST", "/v4/vnets", { name: "imp-net", network: "10.50.0.0/24", dhcp_enabled: false });
    keys.net = String(net.body.$key);
    const vm = await ctx.api("POST", "/v4/vms", { name: "imp-web", cpu_cores: 2, ram: 2048 });
    keys.vm = String(vm.body.$key);
    keys.machine = String((await ctx.api("GET", `/v4/vms/${keys.vm}?fields=machine`)).body.machine);
    const drive = await ctx.api("POST", "/v4/machine_drives", {
      machine: keys.machine,
      name: "os",
      media: "disk",
      interface: "virtio-scsi",
      disksize: 10 * GiB,
    });
    keys.drive = String(drive.body.$key);
    expect([net.status, vm.status, drive.status].every((s) => s < 300)).toBe(true);

    const result = await ctx.stack.import({
      resources: [
        { type: "vplatform:index:Vnet", name: "net", id: keys.net },
        { type: "vplatform:index:VirtualMachine", name: "web", id: keys.vm },
        { type: "vplatform:index:Drive", name: "webOs", id: keys.drive },
      ],
      protect: false,
      ...collect(ctx),
    });
    expect(result.summary.result).toBe("succeeded");
    expect(result.stdout).not.toMatch(/failed to validate/);
    generated = result.generatedCode;
    // The YAML generator writes short tokens (vplatform:Vnet) and large integers in float notation.
    for (const line of [
      /type: vplatform:(index:)?Vnet/,
      /network: 10\.50\.0\.0\/24/,
      /type: vplatform:(index:)?VirtualMachine/,
      /name: imp-web/,
      /ram: 2048/,
      /type: vplatform:(index:)?Drive/,
      new RegExp(`machine: '${keys.machine}'`),
      /disksize: (10737418240|1\.073741824e\+10)/,
    ]) {
      expect(generated).toMatch(line);
    }
  }, 300_000);

  test("a key with no row: the error says the platform has no such row and what the key is, not that the plugin cannot import", async () => {
    const failed = await ctx.stack
      .import({ resources: [{ type: "vplatform:index:VirtualMachine", name: "ghost", id: "99999" }], protect: false, ...collect(ctx) })
      .then(
        () => "imported",
        (e: Error) => e.message,
      );
    expect(failed).toContain("vplatform: import of VirtualMachine '99999': the platform has no such row. The import takes the row's key");
    expect(failed).not.toMatch(/does not support importing|please try updating/);
  }, 300_000);

  test("the generated code, pasted as the program, previews and refreshes with no changes", async () => {
    writeProgram(generated);
    const preview = await ctx.stack.preview({ ...collect(ctx), diff: true });
    // On failure the engine's diff (in the message) names the differing fields.
    expect({ changes: changed(preview.changeSummary), diff: preview.stdout }).toEqual({
      changes: [],
      diff: expect.not.stringMatching(/^\s+[~+-] /m),
    });
    expect(changed((await ctx.stack.refresh(collect(ctx))).summary.resourceChanges ?? {})).toEqual([]);
  }, 300_000);

  test("`get:` reads an existing VM by key into the program without managing it", async () => {
    writeProgram(
      `${generated}\n  seen:\n    type: vplatform:index:VirtualMachine\n    get:\n      id: "${keys.vm}"\noutputs:\n  seenName: \${seen.name}\n  seenRam: \${seen.ram}\n  seenMachine: \${seen.machineKey}\n`,
    );
    const up = await ctx.stack.up(collect(ctx));
    expect([up.outputs.seenName?.value, up.outputs.seenRam?.value, up.outputs.seenMachine?.value]).toEqual(["imp-web", 2048, keys.machine]);
    expect(changed(up.summary.resourceChanges ?? {})).toEqual([]);
  }, 300_000);
});

describe("pulumi import of a user and its API key: what the platform never answers is left unknown, said once per field", () => {
  test("each unreadable field gets its warning; the code declares neither; pasted, it previews with no changes", async () => {
    const user = await ctx.api("POST", "/v4/users", { name: "imp-ci", role: "readonly", password: "imp-pw-never-read" });
    const key = await ctx.api("POST", "/v4/user_api_keys", { user: user.body.$key, name: "imp-key", expires_type: "never" });
    expect([user.status, key.status]).toEqual([201, 201]);
    const result = await ctx.stack.import({
      resources: [
        { type: "vplatform:index:User", name: "ci", id: String(user.body.$key) },
        { type: "vplatform:index:ApiKey", name: "ciKey", id: String(key.body.$key) },
      ],
      protect: false,
      ...collect(ctx),
    });
    expect(result.summary.result).toBe("succeeded");
    // Each message once, in the engine's Diagnostics section (the progress lines show it beside the resource too).
    const diagnostics = result.stdout.slice(result.stdout.indexOf("Diagnostics:"));
    const said = (pattern: RegExp) => diagnostics.split("\n").filter((line) => pattern.test(line));
    expect(said(/password is write-only: the platform never answers it, so the import leaves it unknown/)).toHaveLength(1);
    expect(said(/secret is answered only when the row is created, so the import leaves it unknown; change rotation/)).toHaveLength(1);
    expect(result.generatedCode).toMatch(/name: imp-ci/);
    expect(result.generatedCode).toMatch(/name: imp-key/);
    expect(result.generatedCode).not.toMatch(/password|secret:/);
    const program = fs.readFileSync(path.join(projectDir, "Pulumi.yaml"), "utf8").slice(HEADER.length);
    const [resources, outputs] = program.split(/^outputs:\n/m);
    writeProgram(`${resources.trimEnd()}\n${result.generatedCode.replace(/^resources:\n/, "")}\noutputs:\n${outputs}`);
    const preview = await ctx.stack.preview({ ...collect(ctx), diff: true });
    expect({ changes: changed(preview.changeSummary), diff: preview.stdout }).toEqual({
      changes: [],
      diff: expect.not.stringMatching(/^\s+[~+-] /m),
    });
  }, 300_000);
});

describe("pulumi import in a TypeScript project that installed the packed package", () => {
  let tsDir: string;
  let tsStack: Stack;
  let code = "";
  beforeAll(async () => {
    // Outside this repository, where `vplatform` would name the repository's own build.
    tsDir = fs.mkdtempSync(path.join(os.tmpdir(), "vplatform-import-ts-"));
    fs.writeFileSync(path.join(tsDir, "Pulumi.yaml"), "name: plugin-import-ts\nruntime: nodejs\n");
    fs.writeFileSync(path.join(tsDir, "index.ts"), "export {};\n");
    // The tarball `npm pack` makes (dist/ was just built), unpacked as npm installs it; the rest of
    // node_modules (@pulumi/pulumi, typescript) is the repository's.
    const root = findRepoRoot();
    const packed = JSON.parse(
      execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", tsDir], { cwd: root }).toString(),
    );
    const modules = path.join(root, "node_modules");
    fs.mkdirSync(path.join(tsDir, "node_modules"));
    for (const name of fs.readdirSync(modules).filter((n) => n !== "vplatform" && n !== ".bin"))
      fs.symlinkSync(path.join(modules, name), path.join(tsDir, "node_modules", name));
    execFileSync("tar", ["xzf", path.join(tsDir, packed[0].filename), "-C", tsDir]);
    fs.renameSync(path.join(tsDir, "package"), path.join(tsDir, "node_modules", "vplatform"));
    const { url, apiKey, caCert } = ctx.emulator;
    tsStack = await createLocalStack({
      stackName: "ts",
      stateDir: path.join(tsDir, "state"),
      connection: { endpoint: url, apiKey, caCert },
      workDir: tsDir,
    });
  }, 300_000);
  afterAll(() => tsDir && fs.rmSync(tsDir, { recursive: true, force: true }));

  test("`pulumi import vplatform:index:VirtualMachine web <key>` prints TypeScript on vplatform, the one SDK, declaring the VM", async () => {
    const result = await tsStack.import({
      resources: [{ type: "vplatform:index:VirtualMachine", name: "web", id: keys.vm }],
      protect: false,
      ...collect(ctx),
    });
    expect(result.summary.result).toBe("succeeded");
    code = result.generatedCode;
    expect(code).toMatch(/^import \* as vplatform from "vplatform";$/m);
    expect(code).toMatch(/^const web = new vplatform\.VirtualMachine\("web", \{$/m);
    for (const property of [/name: "imp-web"/, /cpuCores: 2/, /ram: 2048/]) expect(code).toMatch(property);
    // Enum-typed inputs are written as enums, which the SDK exports under the generator's names.
    expect(code).toMatch(/^ {4}osFamily: vplatform\.VirtualMachineOsFamily\.Linux,$/m);
  }, 300_000);

  test.each([
    ["the current template (module nodenext)", { module: "nodenext", moduleResolution: "nodenext" }],
    ["the older template (commonjs, moduleResolution node)", { module: "commonjs", moduleResolution: "node" }],
  ])("pasted into index.ts, it compiles under %s (the user's tsc, no skipLibCheck)", (_template, modules) => {
    fs.writeFileSync(path.join(tsDir, "index.ts"), code);
    const compilerOptions = { strict: true, target: "es2020", noImplicitReturns: true, noEmit: true, ...modules };
    fs.writeFileSync(path.join(tsDir, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["index.ts"] }));
    const tsc = path.join(tsDir, "node_modules", "typescript", "bin", "tsc");
    const errors = (() => {
      try {
        execFileSync(process.execPath, [tsc, "-p", "tsconfig.json", "--pretty", "false"], { cwd: tsDir, stdio: "pipe" });
        return "";
      } catch (e) {
        return String((e as { stdout?: Buffer }).stdout ?? e);
      }
    })();
    expect(errors).toBe("");
  });

  test("and previews with no changes", async () => {
    const preview = await tsStack.preview({ ...collect(ctx), diff: true });
    expect({ changes: changed(preview.changeSummary), diff: preview.stdout }).toEqual({
      changes: [],
      diff: expect.not.stringMatching(/^\s+[~+-] /m),
    });
  }, 300_000);

  test("up takes the row over as the SDK's resource with no change; refresh finds none; destroy deletes the row", async () => {
    const up = await tsStack.up(collect(ctx));
    expect(changed(up.summary.resourceChanges ?? {})).toEqual([]);
    const resources = (await tsStack.exportStack()).deployment.resources as { urn: string; type: string }[];
    expect(resources.filter((r) => r.urn.endsWith("::web")).map((r) => r.type)).toEqual(["pulumi-nodejs:dynamic/vplatform:VirtualMachine"]);
    expect(changed((await tsStack.refresh(collect(ctx))).summary.resourceChanges ?? {})).toEqual([]);
    expect(changed((await tsStack.preview(collect(ctx))).changeSummary)).toEqual([]);
    expect((await tsStack.destroy(collect(ctx))).summary.result).toBe("succeeded");
    expect((await ctx.api("GET", `/v4/vms/${keys.vm}?fields=name`)).status).toBe(404);
  }, 300_000);
});
