// The package as a user gets it: `npm pack`, the tarball installed into a fresh
// project outside this repository (its own node_modules, its own @pulumi/pulumi,
// newer than ours), a TypeScript program run by the engine against the emulator
// under Node 22 and Node 24, the user's `tsc` under both Pulumi TypeScript
// templates, and the emulator started from the installed package's bin.
// One pack and one install serve every check.
import { execFileSync, spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { LocalWorkspace, PulumiCommand, type Stack } from "@pulumi/pulumi/automation";
import { engineEnv, pulumiRoot } from "../../env/local-stack";
import { startEmulator, type RunningEmulator } from "../../emulator";

const repoRoot = path.resolve(__dirname, "../..");
/** The user's own @pulumi/pulumi: a newer release than the one this repository builds against. */
const USER_PULUMI = "3.270.0";

/** Node versions the program and the dynamic provider run under: this one (24) and the set-up's Node 22. */
function nodeBins(): Record<string, string> {
  const node22 = process.env.VPLATFORM_NODE22;
  if (!node22 || !fs.existsSync(node22)) throw new Error("VPLATFORM_NODE22 (a Node 22 binary) is not set: run through ./dev test (scripts/env.sh installs it)");
  return { [`node${process.versions.node.split(".")[0]}`]: process.execPath, node22 };
}

const run = (cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) =>
  execFileSync(cmd, args, { cwd, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

const npm = (args: string[], cwd: string) => run("npm", args, cwd);

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
const tsconfig = (options: object) => JSON.stringify({ compilerOptions: { ...TEMPLATE_TSCONFIG, ...options }, files: ["index.ts"] }, null, 2);

let work: string;
let project: string;
let tarball: string;

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "vplatform-package-"));
  // dist/ was just built by ./dev test; the package's own prepare (the build) runs in the set-up's npm ci.
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
      devDependencies: { "@types/node": "^22.19.0", typescript: "~5.9.3" },
    }),
  );
  npm(["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"], project);
  fs.writeFileSync(path.join(project, "index.ts"), PROGRAM);
  fs.writeFileSync(path.join(project, "tsconfig.json"), tsconfig({}));
  fs.writeFileSync(path.join(project, "tsconfig.commonjs.json"), tsconfig({ module: "commonjs", moduleResolution: "node" }));
}, 600_000);

afterAll(() => {
  if (work && !process.env.VPLATFORM_KEEP_E2E) fs.rmSync(work, { recursive: true, force: true });
});

describe("the tarball", () => {
  test("holds compiled JavaScript and declarations of the SDK, provider, environment runner and emulator, and nothing else", () => {
    const files = run("tar", ["tzf", tarball], work).trim().split("\n").map((f) => f.replace(/^package\//, ""));
    const allowed = /^(package\.json|README\.md|schema\.json|plugin\/(PulumiPlugin\.yaml|index\.js)|docs\/resources\.md|emulator\/README\.md|dist\/(sdk|provider|env|emulator)\/.+\.(js|d\.ts))$/;
    expect(files.filter((f) => !allowed.test(f))).toEqual([]);
    expect(files.filter((f) => /\.test\.|typecheck|\.go$|^tools\/|^scripts\/|^test\//.test(f))).toEqual([]);
    expect(files).toEqual(expect.arrayContaining(["dist/sdk/index.js", "dist/sdk/index.d.ts", "dist/emulator/cli.js", "dist/env/index.js", "dist/provider/resources/virtualMachine.js"]));
  });

  test("installs with no install scripts of its own and @pulumi/pulumi as the user's one copy", () => {
    const installed = JSON.parse(fs.readFileSync(path.join(project, "node_modules/vplatform/package.json"), "utf8"));
    expect(Object.keys(installed.scripts ?? {}).filter((s) => /install/.test(s))).toEqual([]);
    expect(installed.peerDependencies["@pulumi/pulumi"]).toBeDefined();
    expect(JSON.parse(fs.readFileSync(path.join(project, "node_modules/@pulumi/pulumi/package.json"), "utf8")).version).toBe(USER_PULUMI);
    expect(fs.existsSync(path.join(project, "node_modules/vplatform/node_modules/@pulumi/pulumi"))).toBe(false);
  });
});

describe("a user's tsc (no skipLibCheck) compiles a program against the published declarations", () => {
  /** The compiler's errors ("" when it compiles). */
  const tscErrors = (config: string): string => {
    try {
      run(process.execPath, [path.join(project, "node_modules/typescript/bin/tsc"), "--noEmit", "--pretty", "false", "-p", config], project);
      return "";
    } catch (e) {
      return String((e as { stdout?: string }).stdout ?? e);
    }
  };
  test("under the current template (module nodenext)", () => {
    expect(tscErrors("tsconfig.json")).toBe("");
  });
  test("under the older template (commonjs, moduleResolution node)", () => {
    expect(tscErrors("tsconfig.commonjs.json")).toBe("");
  });
  test("and refuses a VM key where a machine key belongs (the check is real)", () => {
    fs.writeFileSync(path.join(project, "wrong.ts"), `import * as vp from "vplatform";\nconst vm = new vp.VirtualMachine("v", { name: "v" });\nnew vp.Drive("d", { machine: vm.id, disksize: 1 });\n`);
    fs.writeFileSync(path.join(project, "tsconfig.wrong.json"), JSON.stringify({ compilerOptions: TEMPLATE_TSCONFIG, files: ["wrong.ts"] }));
    try {
      expect(tscErrors("tsconfig.wrong.json")).toMatch(/wrong\.ts\(3,.*MachineKey/);
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

  test("a TypeScript program: preview, up, refresh with no changes, destroy", async () => {
    const emulator: RunningEmulator = await startEmulator({ port: 0, timeScale: 0.01, quiet: true });
    try {
      const stack = await userStack(name, nodeBin, emulator);
      const preview = await stack.preview();
      expect(preview.changeSummary.create).toBe(5); // the stack and four resources

      const up = await stack.up();
      expect(up.summary.result).toBe("succeeded");
      expect(up.outputs.status.value).toBe("running");
      expect(up.outputs.nodeVersion.value).toMatch(new RegExp(`^v${name.replace("node", "")}\\.`));
      const vmKey = up.outputs.vmKey.value as string;
      const vm = await adminGet(emulator, `/v4/vms/${vmKey}?fields=name`);
      expect(vm.name).toBe("pkg-web");

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

async function adminFetch(emulator: RunningEmulator, apiPath: string): Promise<{ status: number; body: any }> {
  const { default: got } = await import("got");
  const res = await got(`${emulator.url}/api${apiPath}`, {
    headers: { authorization: "Basic " + Buffer.from(`${emulator.adminUser}:${emulator.adminPassword}`).toString("base64") },
    https: { certificateAuthority: emulator.caCert },
    throwHttpErrors: false,
    retry: { limit: 0 },
  });
  return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined };
}
const adminGet = async (emulator: RunningEmulator, apiPath: string) => (await adminFetch(emulator, apiPath)).body;
const adminStatus = async (emulator: RunningEmulator, apiPath: string) => (await adminFetch(emulator, apiPath)).status;
