// vp.Lab for every language: the plugin's component vplatform:index:Lab (schema.json, the plugin's Construct) declared
// by a Pulumi YAML, a Python and a Go program (examples/yaml-class, python-class, go-class), each a 3-copy lab, under
// the real engine against one emulator; each step runs the three programs at once. The SDKs are the set-up's
// (VPLATFORM_SDK, VPLATFORM_PYTHON_SDK); the plugin is the directory the programs' Pulumi.yaml names.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { findRepoRoot } from "../../env/local-stack";
import { type LabCopy, planCopies } from "../../provider/plan/lab";
import { pythonName } from "../../provider/plugin/sdkSpellings";
import { collect, startE2e, type E2eContext } from "./harness";
import { setUpPythonSdk, setUpSdk } from "./setUpSdks";

const run = promisify(execFile);
const root = findRepoRoot();
const GiB = 1024 ** 3;
const changed = (summary: Record<string, number | undefined>) => Object.keys(summary).filter((k) => k !== "same" && summary[k]);

/** Each language's program: its example, its lab's name and pool (as the program declares them). */
const PROGRAMS = [
  { language: "yaml", example: "yaml-class", pool: "10.81.0.0/16" },
  { language: "python", example: "python-class", pool: "10.82.0.0/16" },
  { language: "go", example: "go-class", pool: "10.83.0.0/16" },
] as const;
type Program = (typeof PROGRAMS)[number] & { ctx: E2eContext; copies: LabCopy[] };

let emulator: RunningEmulator;
let programs: Program[] = [];
const work: string[] = [];

/** The example as a user has it: its files, the vplatform package in node_modules, the language's SDK. */
async function project({ language, example }: (typeof PROGRAMS)[number]): Promise<string> {
  const base = path.join(root, ".e2e-work");
  fs.mkdirSync(base, { recursive: true });
  const dir = fs.mkdtempSync(path.join(base, `${example}-`));
  work.push(dir);
  fs.cpSync(path.join(root, "examples", example), dir, { recursive: true });
  fs.symlinkSync(path.join(root, "node_modules"), path.join(dir, "node_modules"), "dir");
  if (language === "python") fs.symlinkSync(path.join(setUpPythonSdk(), "venv"), path.join(dir, "venv"), "dir");
  if (language === "go") {
    // docs/guides/go.md's require and replace, to the set-up's SDK; its build flags (scripts/env.sh).
    const sdk = path.join(setUpSdk(), "go");
    const module = /^module (\S+)$/m.exec(fs.readFileSync(path.join(sdk, "go.mod"), "utf8"))?.[1];
    const { version } = require("../../package.json");
    await run("go", ["mod", "edit", `-require=${module}@v${version}`, `-replace=${module}=${sdk}`], { cwd: dir });
    process.env.GOFLAGS = process.env.VPLATFORM_GOFLAGS;
  }
  return dir;
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, timeScale: 0.01, quiet: true });
  // One emulator for the three stacks: each context's dispose leaves it running, afterAll closes it.
  const shared = { ...emulator, close: async () => undefined };
  programs = await Promise.all(
    PROGRAMS.map(async (p) => ({
      ...p,
      ctx: await startE2e(p.example, { projectDir: await project(p) }, shared),
      copies: planCopies({ name: p.example, copies: 3, pool: p.pool }),
    })),
  );
}, 120_000);
afterAll(async () => {
  await Promise.all(programs.map((p) => p.ctx.dispose()));
  await emulator?.close();
  for (const dir of work) fs.rmSync(dir, { recursive: true, force: true });
});

/** Each program's step at once; failures name the language. */
const each = <T>(step: (p: Program) => Promise<T>): Promise<T[]> =>
  Promise.all(
    programs.map((p) =>
      step(p).catch((err: Error) => {
        throw new Error(`${p.language}: ${err.message}`);
      }),
    ),
  );

const api = async (apiPath: string) => (await programs[0].ctx.api("GET", apiPath)).body;

/** The lab as the platform holds it: a vnet per copy on its block of the pool, and on it the copy's running VM. */
async function expectLab(p: Program, ram: number) {
  const vnets = (await api("/v4/vnets?fields=name,network")).filter((v: { name: string }) => v.name.startsWith(`${p.example}-`));
  expect(vnets.map((v: { name: string; network: string }) => [v.name, v.network]).sort()).toEqual(p.copies.map((c) => [c.name, c.network]));
  const vms = (await api("/v4/vms?filter=is_snapshot%20eq%20false&fields=name,ram,machine,machine%23status%23status%20as%20status")).filter(
    (v: { name: string }) => v.name.startsWith(`${p.example}-`),
  );
  expect(vms.map((v: { name: string; ram: number; status: string }) => [v.name, v.ram, v.status]).sort()).toEqual(
    p.copies.map((c) => [`${c.name}-web`, ram, "running"]),
  );
  for (const vm of vms) {
    const copy = vm.name.replace(/-web$/, "");
    expect(await api(`/v4/machine_drives?filter=machine%20eq%20${vm.machine}&fields=name,disksize`)).toEqual([
      expect.objectContaining({ name: "os", disksize: 10 * GiB }),
    ]);
    expect(await api(`/v4/machine_nics?filter=machine%20eq%20${vm.machine}&fields=name,vnet%23name%20as%20vnet`)).toEqual([
      expect.objectContaining({ name: "eth0", vnet: copy }),
    ]);
  }
}

async function expectGone(p: Program) {
  const names = [...(await api("/v4/vnets?fields=name")), ...(await api("/v4/vms?fields=name"))].map((r: { name: string }) => r.name);
  expect(names.filter((n) => n.startsWith(`${p.example}-`))).toEqual([]);
}

describe("a 3-copy vp.Lab declared in Pulumi YAML, Python and Go (the plugin's component) under the real engine", () => {
  test("preview plans each lab (the component, and per copy a vnet, a VM, its drive, NIC and power) and sends no mutating request", async () => {
    await programs[0].ctx.resetRequestCounts();
    const previews = await each((p) => p.ctx.stack.preview(collect(p.ctx)));
    for (const preview of previews) expect(preview.changeSummary).toEqual({ create: 17 }); // the stack, the lab, 5 per copy
    expect((await programs[0].ctx.requestCounts()).entries.filter((e) => e.method !== "GET")).toEqual([]);
    for (const p of programs) await expectGone(p);
  }, 300_000);

  test("up makes each copy: its vnet on its block of the pool, its running VM with the drive and the NIC on that vnet", async () => {
    const ups = await each((p) => p.ctx.stack.up(collect(p.ctx)));
    for (const [i, up] of ups.entries()) {
      const p = programs[i];
      // The component's output, as vp.Lab's: per copy by its number, its vnet and VMs with their keys (a Python
      // program's export of it spells its fields as Python does: machine_key).
      const copies = up.outputs.copies.value;
      const spell = p.language === "python" ? pythonName : (field: string) => field;
      expect(Object.keys(copies)).toEqual(["01", "02", "03"]);
      expect(copies["01"]).toMatchObject({
        number: 1,
        name: `${p.example}-01`,
        vnet: { name: `${p.example}-01`, network: p.copies[0].network },
      });
      expect(copies["01"].vms.web).toEqual({
        id: expect.stringMatching(/^\d+$/),
        [spell("machineKey")]: expect.stringMatching(/^\d+$/),
        name: `${p.example}-01-web`,
        [spell("powerState")]: "running",
      });
      await expectLab(p, 1024);
    }
  }, 300_000);

  test("preview --expect-no-changes and refresh then find nothing to change", async () => {
    const previews = await each((p) => p.ctx.stack.preview({ ...collect(p.ctx), expectNoChanges: true }));
    for (const preview of previews) expect(changed(preview.changeSummary)).toEqual([]);
    const refreshes = await each((p) => p.ctx.stack.refresh(collect(p.ctx)));
    for (const refresh of refreshes) expect(changed(refresh.summary.resourceChanges ?? {})).toEqual([]);
    for (const p of programs) await expectLab(p, 1024);
  }, 300_000);

  test("a one-field update (the template VM's RAM, from stack config) updates the three copies' VMs only", async () => {
    const ups = await each(async (p) => {
      await p.ctx.stack.setConfig("ram", { value: "2048" });
      return p.ctx.stack.up(collect(p.ctx));
    });
    for (const up of ups) expect(up.summary.resourceChanges).toEqual({ update: 3, same: 14 });
    for (const p of programs) await expectLab(p, 2048);
  }, 300_000);

  test("destroy removes every copy", async () => {
    await each((p) => p.ctx.stack.destroy(collect(p.ctx)));
    for (const p of programs) await expectGone(p);
  }, 300_000);
});

describe("the guides show the programs this file runs, verbatim", () => {
  test.each([
    ["docs/guides/class-labs.md", "yaml", "examples/yaml-class/Pulumi.yaml"],
    ["docs/guides/python.md", "python", "examples/python-class/__main__.py"],
    ["docs/guides/go.md", "go", "examples/go-class/main.go"],
  ])("%s shows %s's %s", (guide, lang, example) => {
    const program = fs.readFileSync(path.join(root, example), "utf8");
    expect(fs.readFileSync(path.join(root, guide), "utf8")).toContain(`\`\`\`${lang}\n${program.trimEnd()}\n\`\`\``);
  });
});
