// examples/python-lab: a Python program (runtime: python, our tools/pulumi-language-python) on the generated
// Python SDK (sdk-python/, built into a wheel and installed with pip into the project's fresh virtualenv), served by
// the resource plugin, under the real engine against the emulator.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { findRepoRoot } from "../../env/local-stack";
import { collect, errorLines, startE2e, type E2eContext } from "./harness";

const run = promisify(execFile);
const root = findRepoRoot();
const GiB = 1024 ** 3;
let ctx: E2eContext;
let projectDir: string;
const changed = (summary: Record<string, number | undefined>) => Object.keys(summary).filter((k) => k !== "same" && summary[k]);
const platform = {
  vm: async () =>
    (await ctx.api("GET", "/v4/vms?filter=name%20eq%20'py-web'&fields=name,ram,machine,machine%23status%23status%20as%20status")).body,
  drives: async (machine: string) =>
    (await ctx.api("GET", `/v4/machine_drives?filter=machine%20eq%20${machine}&fields=name,disksize,preferred_tier&sort=name`)).body,
  nics: async (machine: string) =>
    (await ctx.api("GET", `/v4/machine_nics?filter=machine%20eq%20${machine}&fields=name,vnet%23name%20as%20vnet`)).body,
  vnets: async () => (await ctx.api("GET", "/v4/vnets?filter=name%20eq%20'py-lab'&fields=name")).body,
};
/** The lab as the platform holds it, for a check after each step. */
async function expectLab(ram: number) {
  const [vm] = await platform.vm();
  expect(vm).toMatchObject({ name: "py-web", ram, status: "running" });
  const drives = await platform.drives(vm.machine);
  expect(drives).toEqual([
    expect.objectContaining({ name: "data", disksize: 50 * GiB }),
    expect.objectContaining({ name: "os", disksize: 20 * GiB }),
  ]);
  expect(String(drives.find((d: { name: string }) => d.name === "os").preferred_tier)).toBe("1");
  expect(await platform.nics(vm.machine)).toEqual([expect.objectContaining({ name: "eth0", vnet: "py-lab" })]);
  expect(await platform.vnets()).toHaveLength(1);
}
/** Requests other than reads that the emulator counted since the last reset. */
async function mutatingRequests() {
  return (await ctx.requestCounts()).entries.filter((e) => e.method !== "GET");
}

beforeAll(async () => {
  // The project as a user has it: the example's files, a fresh virtualenv (Pulumi.yaml's `virtualenv: venv`) and
  // the SDK's wheel installed into it by pip (pulumi and the rest from the set-up's copy of PyPI's wheels).
  const base = path.join(root, ".e2e-work");
  fs.mkdirSync(base, { recursive: true });
  projectDir = fs.mkdtempSync(path.join(base, "python-lab-"));
  fs.cpSync(path.join(root, "examples", "python-lab"), projectDir, { recursive: true });
  const wheel = (await run("bash", ["scripts/build-python-sdk.sh", path.join(projectDir, "dist")], { cwd: root })).stdout.trim();
  expect(path.basename(wheel)).toBe(`pulumi_vplatform-${require("../../package.json").version}-py3-none-any.whl`);
  await run("python3", ["-m", "venv", "venv"], { cwd: projectDir });
  const wheels = process.env.VPLATFORM_PYTHON_WHEELS ?? "";
  await run("venv/bin/pip", ["install", "-q", "--disable-pip-version-check", "--no-index", "--find-links", wheels, wheel], {
    cwd: projectDir,
  });
  ctx = await startE2e("python-lab", { projectDir });
}, 180_000);
afterAll(async () => {
  await ctx?.dispose();
  if (projectDir) fs.rmSync(projectDir, { recursive: true, force: true });
});

describe("the Python example under the real engine", () => {
  test("the wheel installed the SDK and pulumi at the engine's release into the virtualenv", async () => {
    const python = path.join(projectDir, "venv/bin/python");
    const { stdout } = await run(python, [
      "-c",
      "import importlib.metadata as m; print(m.version('pulumi'), m.version('pulumi_vplatform'))",
    ]);
    expect(stdout.trim()).toBe(`${require("@pulumi/pulumi/package.json").version} ${require("../../package.json").version}`);
  }, 60_000);

  test("preview plans the lab and sends no mutating request", async () => {
    await ctx.resetRequestCounts();
    const preview = await ctx.stack.preview(collect(ctx));
    expect(preview.changeSummary).toMatchObject({ create: 6 }); // the stack, a vnet, a VM, two drives, a NIC
    expect(await mutatingRequests()).toEqual([]);
    expect(await platform.vm()).toEqual([]);
  }, 300_000);

  test("up creates the vnet, the running VM, its two drives (the OS on the looked-up tier) and its NIC", async () => {
    const up = await ctx.stack.up(collect(ctx));
    expect(up.outputs.status.value).toBe("running");
    await expectLab(2048);
  }, 300_000);

  test("preview --expect-no-changes and refresh then find nothing to change", async () => {
    const preview = await ctx.stack.preview({ ...collect(ctx), expectNoChanges: true });
    expect(changed(preview.changeSummary)).toEqual([]);
    expect(changed((await ctx.stack.refresh(collect(ctx))).summary.resourceChanges ?? {})).toEqual([]);
    await expectLab(2048);
  }, 300_000);

  test("a one-field update (the VM's RAM, from stack config) updates only the VM", async () => {
    await ctx.stack.setConfig("ram", { value: "4096" });
    const up = await ctx.stack.up(collect(ctx));
    expect(up.summary.resourceChanges).toMatchObject({ update: 1 });
    expect(changed(up.summary.resourceChanges ?? {})).toEqual(["update"]);
    await expectLab(4096);
  }, 300_000);

  test("a bad input fails preview naming the field", async () => {
    await ctx.stack.setConfig("ram", { value: "-5" });
    const failed = await ctx.stack.preview(collect(ctx)).then(
      () => "",
      (e: Error) => errorLines(e.message),
    );
    await ctx.stack.setConfig("ram", { value: "4096" });
    expect(failed).toMatch(/vplatform:index:VirtualMachine.*\bram\b/);
  }, 300_000);

  test("destroy removes everything it made", async () => {
    await ctx.stack.destroy(collect(ctx));
    expect(await platform.vm()).toEqual([]);
    expect(await platform.vnets()).toEqual([]);
  }, 300_000);
});
