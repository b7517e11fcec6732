// The package as a user gets it: `npm pack`, the tarball installed into a fresh
// project outside this repository (its own node_modules, its own @pulumi/pulumi,
// newer than ours), a TypeScript program run by the engine against the emulator
// (the README's; in the full form also this one under Node 22 and Node 24), a YAML
// environment file of the project provisioned by the installed package's CLI
// (`npx vplatform env ...`, under both Nodes), the user's `tsc`
// under both Pulumi TypeScript templates, and the emulator started from the
// installed package's bin. One pack and one install serve every check.
import { execFile, execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { LocalWorkspace, PulumiCommand, type Stack } from "@pulumi/pulumi/automation";
import { engineEnv, pulumiRoot } from "../../env/local-stack";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { FULL_FORM } from "../fullForm";

const repoRoot = path.resolve(__dirname, "../..");
/** The user's own @pulumi/pulumi: a newer release than the one this repository builds against. */
const USER_PULUMI = "3.270.0";

const thisNodeName = `node${process.versions.node.split(".")[0]}`;
/** Node versions the program and the dynamic provider run under: this one (24) and the set-up's Node 22. */
function nodeBins(): Record<string, string> {
  const node22 = process.env.VPLATFORM_NODE22;
  if (!node22 || !fs.existsSync(node22))
    throw new Error("VPLATFORM_NODE22 (a Node 22 binary) is not set: run through ./dev test (scripts/env.sh installs it)");
  return { [thisNodeName]: process.execPath, node22 };
}

const run = (cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) =>
  execFileSync(cmd, args, { cwd, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

const npm = (args: string[], cwd: string) => run("npm", args, cwd);

/** The TypeScript a fresh `npm install typescript` brings (the newest that @pulumi/pulumi accepts: 6.x today). */
const installTypeScript = (project: string) =>
  npm(["install", "--save-dev", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error", "typescript"], project);

const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as vp from "vplatform";

const net = new vp.Vnet("lab", { name: "pkg-lab", network: "10.30.0.0/24", dhcpEnabled: true, dhcpStart: "10.30.0.100", dhcpStop: "10.30.0.200" });
const web = new vp.VirtualMachine("web", { name: "pkg-web", cpuCores: 1, ram: 1024, machineType: "q35", powerState: "running" });
new vp.Drive("web-os", { machine: web.machineKey, name: "os", media: "disk", interface: "virtio-scsi", disksize: 10 * 1024 ** 3 });
new vp.Nic("web-eth0", { machine: web.machineKey, vnet: net.id, interface: "virtio" });

export const vmKey = web.id;
export const status: pulumi.Output<string> = web.status;
export const nodeVersion = process.version;
`;

/** The other entry points as a user's code uses them: the environment runner and the emulator (type-checked only). */
const ENTRY_POINTS = `import * as fs from "fs";
import { buildEnvironment, EnvironmentError, loadEnvironment, type BuiltEnvironment, type Environment } from "vplatform/env";
import { startEmulator, type RunningEmulator } from "vplatform/emulator";

export function provision(file: string): BuiltEnvironment {
  const env: Environment = loadEnvironment(file, fs.readFileSync(file, "utf8"), "dev");
  const ram: number | undefined = env.vms[0]?.ram;
  return ram === undefined ? buildEnvironment({ vnets: [], vms: [] }) : buildEnvironment(env);
}
export const problems = (e: unknown): string[] => (e instanceof EnvironmentError ? e.problems.map((p) => \`\${p.location.line}:\${p.location.col} \${p.message}\`) : []);
export async function emulatorUrl(): Promise<string> {
  const emulator: RunningEmulator = await startEmulator({ port: 0, timeScale: 0.01 });
  await emulator.close();
  return emulator.url;
}
`;

/** The team's environment file, kept in the user project: a vnet and a running VM on it. */
const ENVIRONMENT = `vnets:
  - name: env-net
    network: 10.31.0.0/24
vms:
  - name: env-web
    ram: 1024
    powerState: running
    nics:
      - vnet: env-net
`;

/** The `pulumi new typescript` settings (current template) and the older template's module settings. */
const TEMPLATE_TSCONFIG = {
  strict: true,
  outDir: "bin",
  target: "es2020",
  module: "nodenext",
  moduleResolution: "nodenext",
  sourceMap: true,
  experimentalDecorators: true,
  pretty: true,
  noFallthroughCasesInSwitch: true,
  noImplicitReturns: true,
  forceConsistentCasingInFileNames: true,
};
/** The older template's module settings: TypeScript 6 refuses its `moduleResolution` (TS5107), which README.md says how to mend. */
const OLDER_TEMPLATE = { module: "commonjs", moduleResolution: "node" };
const tsconfig = (options: object) =>
  JSON.stringify({ compilerOptions: { ...TEMPLATE_TSCONFIG, ...options }, files: ["index.ts", "entry-points.ts"] }, null, 2);

let work: string;
let project: string;
let tarball: string;

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "vplatform-package-"));
  // dist/ was just built by ./dev test (npm pack alone builds it too: prepack).
  const packed = JSON.parse(npm(["pack", "--json", "--ignore-scripts", "--pack-destination", work], repoRoot));
  tarball = path.join(work, packed[0].filename);
  project = path.join(work, "user-project");
  fs.mkdirSync(project);
  fs.writeFileSync(
    path.join(project, "package.json"),
    JSON.stringify({
      name: "user-project",
      private: true,
      dependencies: { "@pulumi/pulumi": USER_PULUMI, vplatform: `file:${tarball}` },
      devDependencies: { "@types/node": "^22.19.0" },
    }),
  );
  npm(["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"], project);
  installTypeScript(project);
  fs.writeFileSync(path.join(project, "index.ts"), PROGRAM);
  fs.writeFileSync(path.join(project, "entry-points.ts"), ENTRY_POINTS);
  fs.mkdirSync(path.join(project, "environments"));
  fs.writeFileSync(path.join(project, "environments", "dev.yaml"), ENVIRONMENT);
  fs.writeFileSync(path.join(project, "tsconfig.json"), tsconfig({}));
  fs.writeFileSync(path.join(project, "tsconfig.commonjs.json"), tsconfig(OLDER_TEMPLATE));
  fs.writeFileSync(path.join(project, "tsconfig.commonjs-bundler.json"), tsconfig({ ...OLDER_TEMPLATE, moduleResolution: "bundler" }));
}, 600_000);

afterAll(() => {
  if (work && !process.env.VPLATFORM_KEEP_E2E) fs.rmSync(work, { recursive: true, force: true });
});

describe("the tarball", () => {
  test("holds compiled JavaScript and declarations of the SDK, provider, plugin, environment runner, emulator and policy pack, and nothing else", () => {
    const files = run("tar", ["tzf", tarball], work)
      .trim()
      .split("\n")
      .map((f) => f.replace(/^package\//, ""));
    const allowed =
      /^(package\.json|README\.md|schema\.json|plugin\/(PulumiPlugin\.yaml|index\.js)|policy\/(PulumiPolicy\.yaml|index\.js|package\.json)|docs\/.+\.(md|svg)|emulator\/(services\/)?README\.md|dist\/(sdk|provider|env|emulator|policy|plugin)\/.+\.(js|d\.ts))$/;
    expect(files.filter((f) => !allowed.test(f))).toEqual([]);
    expect(files.filter((f) => /\.test\.|typecheck|\.go$|^tools\/|^scripts\/|^test\//.test(f))).toEqual([]);
    expect(files).toEqual(
      expect.arrayContaining([
        "dist/sdk/index.js",
        "dist/sdk/index.d.ts",
        "dist/emulator/cli.js",
        "dist/env/index.js",
        "dist/provider/resources/virtualMachine/resource.js",
        "dist/plugin/main.js",
        "policy/PulumiPolicy.yaml",
        "dist/policy/pack.js",
        "docs/index.md",
        "docs/costs/wall-time-in-transitions.svg",
      ]),
    );
  });

  test("installs with no install scripts of its own and @pulumi/pulumi as the user's one copy", () => {
    const installed = JSON.parse(fs.readFileSync(path.join(project, "node_modules/vplatform/package.json"), "utf8"));
    expect(Object.keys(installed.scripts ?? {}).filter((s) => /install|prepare/.test(s))).toEqual([]);
    expect(installed.peerDependencies["@pulumi/pulumi"]).toBeDefined();
    expect(JSON.parse(fs.readFileSync(path.join(project, "node_modules/@pulumi/pulumi/package.json"), "utf8")).version).toBe(USER_PULUMI);
    expect(fs.existsSync(path.join(project, "node_modules/vplatform/node_modules/@pulumi/pulumi"))).toBe(false);
  });
});

describe("npm in the user's project", () => {
  test("has no script of vplatform to allow: the build runs on prepack, so npm 11 warns about no prepare of ours", () => {
    const scripts = npm(["install-scripts", "ls"], project);
    expect(scripts).not.toContain("vplatform");
  });
});

describe("the installed vplatform-emulator --help", () => {
  test("prints its usage with the package's command, not compiled JavaScript or this repository's npm scripts", () => {
    const help = run("npx", ["--no-install", "vplatform-emulator", "--help"], project);
    expect(help.split("\n")[0]).toBe("Usage:");
    expect(help).toContain("vplatform-emulator --port 8443 --admin-password s3cret");
    expect(help).not.toMatch(/use strict|defineProperty|require\(|npm run/);
  });
});

describe("a user's tsc (no skipLibCheck) compiles a program and uses of vplatform/env and vplatform/emulator against the published declarations", () => {
  /** The compiler's errors ("" when it compiles). */
  const tscErrors = (config: string): string => {
    try {
      run(
        process.execPath,
        [path.join(project, "node_modules/typescript/bin/tsc"), "--noEmit", "--pretty", "false", "-p", config],
        project,
      );
      return "";
    } catch (e) {
      return String((e as { stdout?: string }).stdout ?? e);
    }
  };
  test("under the current template (module nodenext)", () => {
    expect(tscErrors("tsconfig.json")).toBe("");
  });
  test("under the older template (commonjs), with the moduleResolution README.md gives for TypeScript 6 and later", () => {
    expect(tscErrors("tsconfig.commonjs-bundler.json")).toBe("");
  });
  test("the older template as it was fails from TypeScript 6 on with TS5107, the error README.md names with its mend", () => {
    const major = Number(
      JSON.parse(fs.readFileSync(path.join(project, "node_modules/typescript/package.json"), "utf8")).version.split(".")[0],
    );
    expect(major).toBeGreaterThanOrEqual(6); // what `npm install typescript` brings now
    expect(tscErrors("tsconfig.commonjs.json")).toMatch(/error TS5107: Option 'moduleResolution=node10' is deprecated/);
    const readme = fs.readFileSync(path.join(repoRoot, "README.md"), "utf8");
    expect(readme).toContain("TS5107");
    expect(readme).toContain('"moduleResolution": "bundler"');
    // The package reference says the same.
    const reference = fs.readFileSync(path.join(repoRoot, "docs", "reference", "package.md"), "utf8");
    expect(reference).toMatch(/TypeScript 6 refuses \(TS5107\): set it to `bundler`/);
  });
  test("and refuses a VM key where a machine key belongs, with a message that names the fix (vm.machineKey)", () => {
    fs.writeFileSync(
      path.join(project, "wrong.ts"),
      `import * as vp from "vplatform";\nconst vm = new vp.VirtualMachine("v", { name: "v" });\nnew vp.Drive("d", { machine: vm.id, disksize: 1 });\n`,
    );
    fs.writeFileSync(
      path.join(project, "tsconfig.wrong.json"),
      JSON.stringify({ compilerOptions: TEMPLATE_TSCONFIG, files: ["wrong.ts"] }),
    );
    try {
      const errors = tscErrors("tsconfig.wrong.json");
      expect(errors).toMatch(/wrong\.ts\(3,.*MachineKey/);
      expect(errors).toContain("pass vm.machineKey (not vm.id)");
    } finally {
      fs.rmSync(path.join(project, "wrong.ts"));
      fs.rmSync(path.join(project, "tsconfig.wrong.json"));
    }
  });
});

describe.each(Object.entries(nodeBins()))("under %s", (name, nodeBin) => {
  test("the installed vplatform-emulator bin starts and prints its URL", async () => {
    const bin = path.join(project, "node_modules/.bin/vplatform-emulator");
    const child = spawn(nodeBin, [bin, "--port", "0", "--admin-password", "s3cret", "--time-scale", "0.01"], { cwd: project });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let out = "";
        let err = "";
        child.stdout.on("data", (d) => (out += d) && out.includes("\n") && resolve(out.split("\n")[0]));
        child.stderr.on("data", (d) => (err += d));
        child.on("exit", (code) => reject(new Error(`vplatform-emulator exited ${code}: ${err}`)));
      });
      expect(line).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    } finally {
      child.kill("SIGTERM");
    }
  }, 60_000);

  // The full form (npm run test:full): CI's form runs a TypeScript program of the installed package on this Node in the
  // README's user path below (its provider recorded as a require, checked there); Node 22 runs the installed CLI.
  if (!FULL_FORM) return;
  test("a TypeScript program: preview, up, refresh with no changes, destroy", async () => {
    const emulator: RunningEmulator = await startEmulator({ port: 0, timeScale: 0.01, quiet: true });
    try {
      const stack = await userStack(name, nodeBin, emulator);
      const preview = await stack.preview();
      expect(preview.changeSummary.create).toBe(6); // the stack, four resources and the VM's start after its hardware

      const up = await stack.up();
      expect(up.summary.result).toBe("succeeded");
      expect(up.outputs.status.value).toBe("running");
      expect(up.outputs.nodeVersion.value).toMatch(new RegExp(`^v${name.replace("node", "")}\\.`));
      const vmKey = up.outputs.vmKey.value as string;
      const vm = await adminGet(emulator, `/v4/vms/${vmKey}?fields=name`);
      expect(vm.name).toBe("pkg-web");
      // Each resource's provider is recorded as a require of the installed package, not as serialized closures.
      const dynamic = (await stack.exportStack()).deployment.resources.filter((r: { type: string }) =>
        r.type.startsWith("pulumi-nodejs:dynamic/"),
      );
      expect(dynamic.length).toBe(5); // the four resources and the VM's start after its hardware
      for (const r of dynamic) expect(r.inputs.__provider).toMatch(/require\("vplatform\/dynamic\/[a-zA-Z]+"\)/);
      for (const r of dynamic) expect(r.inputs.__provider.length).toBeLessThan(400);

      const refresh = await stack.refresh();
      expect(Object.entries(refresh.summary.resourceChanges ?? {}).filter(([op]) => op !== "same")).toEqual([]);

      const destroy = await stack.destroy();
      expect(destroy.summary.result).toBe("succeeded");
      expect(await adminStatus(emulator, `/v4/vms/${vmKey}`)).toBe(404);
    } finally {
      await emulator.close();
    }
  }, 300_000);
});

// The installed CLI: its whole path on this Node (full form); on Node 22 a short form (the same code paths, fewer engine runs).
describe("a YAML environment file kept in the user project, through the installed CLI (npx vplatform env)", () => {
  const [[thisNode, thisBin], ...others] = Object.entries(nodeBins());

  // The installed CLI's whole path on this Node is the full form's: CI runs it here through the README's user path
  // (preview and up of its YAML twin) and on the other Node (up, destroy); env-cli.test.ts runs each command at
  // length from the build.
  if (FULL_FORM)
    test(`under ${thisNode}: preview sends nothing mutating, up, refresh finds nothing, drift exits 2 after a change through the API and 0 after up reverts it, destroy`, async () => {
      await withCli(thisNode, thisBin, async ({ env, vms, emulator }) => {
        const preview = await env("preview", "--json");
        expect(preview).toMatchObject({ code: 0 });
        expect(JSON.parse(preview.stdout).plan.counts).toMatchObject({ create: 4 });
        const counted = (await adminGet(emulator, "/_emulator/requests")) as { entries: { method: string }[] };
        expect(counted.entries.filter((e) => e.method !== "GET")).toEqual([]);
        expect(await vms()).toEqual([]);

        const up = await env("up");
        expect(up).toMatchObject({ code: 0 });
        expect(up.stdout).toContain("Applied: 4 to create");
        expect(await vms()).toEqual([{ $key: expect.anything(), name: "env-web", ram: 1024, status: "running" }]);

        const refresh = await env("refresh");
        expect(refresh).toMatchObject({ code: 0 });
        expect(refresh.stdout).toContain("Refreshed: 0 resource(s) changed on the platform outside Pulumi");
        expect(await env("drift")).toMatchObject({ code: 0 });

        // Someone changes the VM through the API, outside Pulumi: drift says so (and `up` reverts it).
        const [vm] = await vms();
        expect((await adminFetch(emulator, `/v4/vms/${vm.$key}`, "PUT", { ram: 2048 })).status).toBe(200);
        const drift = await env("drift");
        expect(drift).toMatchObject({ code: 2 });
        expect(drift.stdout).toContain("ram: 2048 → 1024");
        expect(await env("up")).toMatchObject({ code: 0 });
        expect((await vms())[0]).toMatchObject({ ram: 1024, status: "running" });
        expect(await env("drift")).toMatchObject({ code: 0 });

        expect(await env("destroy")).toMatchObject({ code: 0 });
        expect(await vms()).toEqual([]);
        expect(await adminGet(emulator, "/v4/vnets?filter=name%20eq%20'env-net'")).toEqual([]);
      });
    }, 300_000);

  test("without the Pulumi CLI on PATH: exit 1; the report (what a PR comment shows) and stderr say so and how to install it", async () => {
    const env = { PATH: `${path.dirname(thisBin)}${path.delimiter}/usr/bin${path.delimiter}/bin`, HOME: process.env.HOME };
    const r = await new Promise<CliRun>((resolve) =>
      execFile(
        "npx",
        ["--no-install", "vplatform", "env", "preview", "environments/dev.yaml", "--stack", "dev"],
        { cwd: project, env },
        (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      ),
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("the Pulumi CLI was not found: no `pulumi` on PATH");
    expect(r.stdout).toContain("Plan: FAILED (see Errors)\n");
    expect(r.stdout).toMatch(/x the Pulumi CLI was not found: .*install it/);
    expect(r.stdout).not.toMatch(/no changes|ENOENT/);
  }, 60_000);

  test.each(others)(
    `under %s: up, ${FULL_FORM ? "drift exits 0, " : ""}destroy`,
    async (name, nodeBin) => {
      await withCli(name, nodeBin, async ({ env, vms }) => {
        expect(await env("up")).toMatchObject({ code: 0 });
        expect(await vms()).toEqual([expect.objectContaining({ name: "env-web", status: "running" })]);
        if (FULL_FORM) expect(await env("drift")).toMatchObject({ code: 0 });
        expect(await env("destroy")).toMatchObject({ code: 0 });
        expect(await vms()).toEqual([]);
      });
    },
    300_000,
  );
});

/**
 * The README's "Install and first run" section (up to the next section) as a user copies it: its bash and ts fenced
 * blocks in order (install, configure, program, apply, offline), de-indented.
 */
function readmeUserPath(): {
  login: string;
  install: string;
  configure: string;
  program: string;
  environment: string;
  apply: string;
  applyEnvironment: string;
  offline: string;
} {
  const readme = fs.readFileSync(path.join(repoRoot, "README.md"), "utf8");
  const start = readme.indexOf("## Install and first run (users)");
  const section = readme.slice(start, readme.indexOf("\n## ", start + 1));
  const blocks = [...section.matchAll(/^( *)```(bash|ts|yaml)\n([\s\S]*?)^ *```$/gm)].map(([, indent, lang, body]) => ({
    lang,
    body: body.replace(new RegExp(`^${indent}`, "gm"), ""),
  }));
  expect(blocks.map((b) => b.lang)).toEqual(["bash", "bash", "bash", "ts", "yaml", "bash", "bash", "bash"]);
  const [login, install, configure, program, environment, apply, applyEnvironment, offline] = blocks.map((b) => b.body);
  return { login, install, configure, program, environment, apply, applyEnvironment, offline };
}

/** A free port on 127.0.0.1 (the README's 8443 may be taken: other tests run beside this one). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const portAccepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.end(() => resolve(true)));
    socket.on("error", () => resolve(false));
  });

describe("the README's user path, verbatim, in a fresh project", () => {
  const readme = readmeUserPath();
  let fresh: string;
  let emulator: RunningEmulator;
  /** A shell in the fresh project with the engine on PATH and a local backend: what a user's terminal has. */
  const shell = (script: string, overrides: NodeJS.ProcessEnv = {}): Promise<CliRun> =>
    new Promise((resolve) => {
      const env = {
        PATH: `${path.join(pulumiRoot(), "bin")}${path.delimiter}${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH}`,
        HOME: process.env.HOME,
        PULUMI_HOME: process.env.PULUMI_HOME ?? path.join(repoRoot, ".pulumi", "home"),
        ...engineEnv(path.join(work, "readme-state")),
        PULUMI_SKIP_CONFIRMATIONS: "true", // `pulumi up` asks "Do you want to perform this update?" in a terminal
        npm_config_prefer_offline: "true",
        ...overrides,
      };
      execFile("bash", ["-c", script], { cwd: fresh, env, maxBuffer: 64 << 20 }, (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
  const ok = async (script: string): Promise<string> => {
    const result = await shell(script);
    if (result.code !== 0) throw new Error(`exit ${result.code} of:\n${script}\n${result.stdout}\n${result.stderr}`);
    return result.stdout;
  };

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, timeScale: 0.01, quiet: true });
    // What `pulumi new typescript` leaves with the TypeScript a fresh `npm install typescript` brings, and the
    // release's tarball saved in the project.
    fresh = path.join(work, "readme-project");
    fs.mkdirSync(fresh);
    fs.mkdirSync(path.join(work, "readme-state"));
    fs.writeFileSync(path.join(fresh, "Pulumi.yaml"), "name: readme-project\nruntime: nodejs\n");
    fs.writeFileSync(
      path.join(fresh, "package.json"),
      JSON.stringify({
        name: "readme-project",
        main: "index.ts",
        dependencies: { "@pulumi/pulumi": USER_PULUMI },
        devDependencies: { "@types/node": "^22.19.0" },
      }),
    );
    installTypeScript(fresh);
    fs.writeFileSync(path.join(fresh, "tsconfig.json"), JSON.stringify({ compilerOptions: TEMPLATE_TSCONFIG, files: ["index.ts"] }));
    fs.copyFileSync(tarball, path.join(fresh, path.basename(tarball)));
  }, 60_000);
  afterAll(async () => {
    await emulator?.close();
  });

  test("1. login: the README's file backend under the user's home, which writes no sidecar file a kill could leave empty", async () => {
    const home = path.join(work, "login-home");
    fs.mkdirSync(home);
    // A user's own home and Pulumi home, and no backend but the one the README logs in to.
    const user = { HOME: home, PULUMI_HOME: path.join(home, ".pulumi"), PULUMI_BACKEND_URL: "" };
    const run = await shell(`${readme.login}\npulumi stack init login-check`, user);
    expect(run).toMatchObject({ code: 0 });
    const state = path.join(home, ".pulumi-state", ".pulumi");
    const files = fs.readdirSync(state, { recursive: true }).map(String);
    expect(files).toContain(path.join("stacks", "readme-project", "login-check.json"));
    expect(files.filter((f) => f.endsWith(".attrs"))).toEqual([]);
  }, 60_000);

  test("1. install: the README's npm install of the tarball", async () => {
    expect(readme.install).toContain(`./${path.basename(tarball)}`);
    await ok(readme.install);
    const manifest = JSON.parse(fs.readFileSync(path.join(fresh, "package.json"), "utf8"));
    expect(manifest.dependencies.vplatform).toBe(`file:${path.basename(tarball)}`);
  }, 300_000);

  test("2-4. configure (endpoint, API key, the CA's PEM text with --), the README's program, preview and up", async () => {
    await ok("pulumi stack init dev");
    fs.writeFileSync(path.join(fresh, "ca.pem"), emulator.caCert);
    await ok(readme.configure.replace("https://platform.example.com", emulator.url).replace("<key>", emulator.apiKey));
    expect(await ok("pulumi config get vplatform:caCert")).toBe(`${emulator.caCert.trimEnd()}\n`);
    fs.writeFileSync(path.join(fresh, "index.ts"), readme.program);
    const applied = await ok(readme.apply);
    expect(applied).toMatch(/6 created/); // the stack, the four resources and the VM's start after its hardware
    const vms = await adminGet(emulator, "/v4/vms?fields=name,ram,machine%23status%23status%20as%20status&filter=is_snapshot%20eq%20false");
    expect(vms).toEqual([{ name: "web", ram: 2048, status: "running" }]);
    // Each resource's provider is recorded as a require of the installed package, not as serialized closures.
    const { deployment } = JSON.parse(await ok("pulumi stack export"));
    const dynamic = deployment.resources.filter((r: { type: string }) => r.type.startsWith("pulumi-nodejs:dynamic/"));
    expect(dynamic.length).toBe(5); // the four resources and the VM's start after its hardware
    for (const r of dynamic) expect(r.inputs.__provider).toMatch(/require\("vplatform\/dynamic\/[a-zA-Z]+"\)/);
    for (const r of dynamic) expect(r.inputs.__provider.length).toBeLessThan(400);

    // The drive grows while the VM's RAM changes: the VM is updated in place, so the drive only grows (no re-attach).
    const grown = readme.program.replace("ram: 2048", "ram: 4096").replace("20 * 1024 ** 3", "30 * 1024 ** 3");
    fs.writeFileSync(path.join(fresh, "index.ts"), grown);
    const grow = await ok("pulumi preview --diff");
    expect(grow).toMatch(/~ disksize\s*: 21474836480 => 32212254720/);
    expect(grow).not.toMatch(/machine\s*:.*=>|\[diff: [^\]]*machine/);
    await ok("pulumi destroy --yes");
  }, 300_000);

  test("3-4, the YAML twin: the README's environment file, previewed and applied by the package's CLI", async () => {
    fs.mkdirSync(path.join(fresh, "environments"), { recursive: true });
    fs.writeFileSync(path.join(fresh, "environments", "dev.yaml"), readme.environment);
    fs.writeFileSync(path.join(fresh, "ca.pem"), emulator.caCert);
    const applied = await ok(
      readme.applyEnvironment.replace("https://platform.example.com", emulator.url).replace("<key>", emulator.apiKey),
    );
    expect(applied).toMatch(/\d+ to create/); // the preview's plan, before the up
    const vms = await adminGet(emulator, "/v4/vms?fields=name,ram,machine%23status%23status%20as%20status&filter=is_snapshot%20eq%20false");
    expect(vms).toEqual([{ name: "web", ram: 2048, status: "running" }]);
    // Running: a network passes traffic only while it runs.
    const nets = await adminGet(emulator, "/v4/vnets?fields=name,network,machine%23status%23status%20as%20status&filter=name%20eq%20'lab'");
    expect(nets).toEqual([{ name: "lab", network: "10.20.0.0/24", status: "running" }]);
    await ok(`${readme.applyEnvironment.split("\n")[0].replace("https://platform.example.com", emulator.url).replace("<key>", emulator.apiKey)}
npx vplatform env destroy environments/dev.yaml --stack dev`);
  }, 300_000);

  describe("a mistake in the settings fails the preview once, on the resource, naming the setting (no stack trace)", () => {
    /** `pulumi preview` of the README's program on the dev stack with `settings` set, then the README's settings back. */
    const previewWith = async (settings: string): Promise<CliRun & { seconds: number }> => {
      await ok("pulumi stack select dev");
      await ok(settings);
      const started = Date.now();
      try {
        return { ...(await shell("pulumi preview --diff")), seconds: (Date.now() - started) / 1000 };
      } finally {
        await ok(readme.configure.replace("https://platform.example.com", emulator.url).replace("<key>", emulator.apiKey));
      }
    };
    const occurrences = (text: string, part: string) => text.split(part).length - 1;

    test("a wrong API key: 401 names vplatform:apiKey / VPLATFORM_API_KEY, once", async () => {
      const r = await previewWith("pulumi config set --secret vplatform:apiKey wrong-key");
      expect(r.code).not.toBe(0);
      const output = r.stdout + r.stderr;
      expect(occurrences(output, "check vplatform:apiKey / VPLATFORM_API_KEY")).toBe(1);
      expect(output).not.toMatch(/\n\s+at .*\.js:\d+/);
      expect(output).not.toContain("wrong-key");
    }, 120_000);

    test("an endpoint where nothing listens: fails in seconds, says nothing was sent, names vplatform:endpoint, once", async () => {
      const closed = `https://127.0.0.1:${await freePort()}`;
      const r = await previewWith(`pulumi config set vplatform:endpoint ${closed}`);
      expect(r.code).not.toBe(0);
      const output = r.stdout + r.stderr;
      expect(occurrences(output, `nothing was sent, nothing answers at ${closed}: check vplatform:endpoint / VPLATFORM_ENDPOINT`)).toBe(1);
      expect(output).toContain("--run-program");
      expect(output).not.toMatch(/may have been (applied|created)|\n\s+at .*\.js:\d+/);
      expect(r.seconds).toBeLessThan(60);
    }, 120_000);
  });

  test("offline: the emulator from the package, configured as the README says; kill %1 stops it and frees its port", async () => {
    const port = await freePort();
    await ok("pulumi stack init offline");
    const result = await ok(readme.offline.replaceAll("8443", String(port)));
    expect(result).toMatch(/6 created/); // the stack, four resources and the VM's start after its hardware
    // `kill %1` reached npx; the emulator it started stops too (re-parented, it stops as on SIGTERM).
    const deadline = Date.now() + 10_000;
    while ((await portAccepts(port)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
    expect(await portAccepts(port)).toBe(false);
    expect(fs.existsSync(path.join(fresh, "emulator-state"))).toBe(true);
  }, 300_000);
});

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** A fresh emulator and `vplatform env <command> environments/dev.yaml --stack <node>` on `nodeBin`'s Node. */
async function withCli(
  name: string,
  nodeBin: string,
  body: (cli: { env: (...args: string[]) => Promise<CliRun>; vms: () => Promise<any[]>; emulator: RunningEmulator }) => Promise<void>,
): Promise<void> {
  const emulator = await startEmulator({ port: 0, timeScale: 0.01, quiet: true });
  try {
    // The bin runs on the Node first on PATH (`#!/usr/bin/env node`), and so do the engine's Node processes.
    expect(run("node", ["--version"], project, cliEnv(nodeBin, emulator)).trim()).toMatch(new RegExp(`^v${name.replace("node", "")}\\.`));
    await body({
      env: (command, ...args) => npxVplatform(nodeBin, emulator, ["env", command, "environments/dev.yaml", "--stack", name, ...args]),
      vms: async () =>
        adminGet(emulator, "/v4/vms?fields=$key,name,ram,machine%23status%23status%20as%20status&filter=is_snapshot%20eq%20false"),
      emulator,
    });
  } finally {
    await emulator.close();
  }
}

/** What a CI job gives the CLI: PATH (with `nodeBin`'s Node first), the engine, the platform's settings. */
function cliEnv(nodeBin: string, emulator: RunningEmulator): NodeJS.ProcessEnv {
  return {
    PATH: `${path.dirname(nodeBin)}${path.delimiter}${process.env.PATH}`,
    HOME: process.env.HOME,
    PULUMI_HOME: process.env.PULUMI_HOME ?? path.join(repoRoot, ".pulumi", "home"),
    VPLATFORM_PULUMI_ROOT: pulumiRoot(),
    VPLATFORM_ENDPOINT: emulator.url,
    VPLATFORM_API_KEY: emulator.apiKey,
    VPLATFORM_CA_CERT: emulator.caCert,
  };
}

/** `npx vplatform ...` in the user project (its own node_modules/.bin); never throws, returns the exit code. */
function npxVplatform(nodeBin: string, emulator: RunningEmulator, args: string[]): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      "npx",
      ["--no-install", "vplatform", ...args],
      { cwd: project, env: cliEnv(nodeBin, emulator), maxBuffer: 64 << 20 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** A stack of the user project on a file backend, its engine processes (language host, dynamic provider) on `nodeBin`. */
async function userStack(name: string, nodeBin: string, emulator: RunningEmulator): Promise<Stack> {
  // As `pulumi new typescript` makes it: the language host runs index.ts directly, no build step.
  fs.writeFileSync(path.join(project, "Pulumi.yaml"), "name: user-project\nruntime: nodejs\n");
  const stateDir = path.join(work, `state-${name}`);
  fs.mkdirSync(stateDir, { recursive: true });
  const pulumiHome = process.env.PULUMI_HOME ?? path.join(repoRoot, ".pulumi", "home");
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName: name, workDir: project },
    {
      pulumiCommand: await PulumiCommand.get({ root: pulumiRoot() }),
      pulumiHome,
      envVars: { ...engineEnv(stateDir), PATH: `${path.dirname(nodeBin)}${path.delimiter}${process.env.PATH}` },
    },
  );
  await stack.setAllConfig({
    "vplatform:endpoint": { value: emulator.url },
    "vplatform:apiKey": { value: emulator.apiKey, secret: true },
    "vplatform:caCert": { value: emulator.caCert },
  });
  return stack;
}

async function adminFetch(
  emulator: RunningEmulator,
  apiPath: string,
  method = "GET",
  json?: unknown,
): Promise<{ status: number; body: any }> {
  const { default: got } = await import("got");
  const url = apiPath.startsWith("/_emulator/") ? `${emulator.url}${apiPath}` : `${emulator.url}/api${apiPath}`;
  const res = await got(url, {
    method: method as "GET",
    json,
    headers: { authorization: `Basic ${Buffer.from(`${emulator.adminUser}:${emulator.adminPassword}`).toString("base64")}` },
    https: { certificateAuthority: emulator.caCert },
    throwHttpErrors: false,
    retry: { limit: 0 },
  });
  return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined };
}
const adminGet = async (emulator: RunningEmulator, apiPath: string) => (await adminFetch(emulator, apiPath)).body;
const adminStatus = async (emulator: RunningEmulator, apiPath: string) => (await adminFetch(emulator, apiPath)).status;
