// The lifecycle every lab program goes through under the real engine, whatever its language (test/e2e/*Program.test.ts):
// the README's lab (a vnet, a running VM with two drives, the data one on the tier a look-up finds, and a NIC) and an API
// key, named <prefix>-lab, <prefix>-web and <prefix>-lab-automation, the VM's CPU cores and RAM from the stack config
// `cpuCores` and `ram`; the look-up's answer (`dataTier`) and the key's secret (`labKey`) exported; the platform checked
// after each step.
import * as fs from "node:fs";
import * as path from "node:path";
import { findRepoRoot } from "../../env/local-stack";
import { collect, errorLines, statusWithKey, storedState, type E2eContext } from "./harness";

const GiB = 1024 ** 3;
const changed = (summary: Record<string, number | undefined>) => Object.keys(summary).filter((k) => k !== "same" && summary[k]);

/**
 * Defines the lifecycle's tests on the stack that `context()` gives once the file's beforeAll has made it.
 * `cpuCores`: the input as the program's language spells it (`Python: cpu_cores`), which a refusal must name;
 * `guide`: the language's page, which shows that refusal as the engine prints it.
 */
export function labLifecycle(prefix: string, context: () => E2eContext, { cpuCores, guide }: { cpuCores: string; guide: string }) {
  let ctx: E2eContext;
  /** The lab key's secret, from the stack's outputs after up. */
  let labKey: string;
  beforeAll(() => void (ctx = context()));
  const platform = {
    vm: async () =>
      (await ctx.api("GET", `/v4/vms?filter=name%20eq%20'${prefix}-web'&fields=name,ram,machine,machine%23status%23status%20as%20status`))
        .body,
    drives: async (machine: string) =>
      (await ctx.api("GET", `/v4/machine_drives?filter=machine%20eq%20${machine}&fields=name,disksize,preferred_tier&sort=name`)).body,
    nics: async (machine: string) =>
      (await ctx.api("GET", `/v4/machine_nics?filter=machine%20eq%20${machine}&fields=name,vnet%23name%20as%20vnet`)).body,
    vnets: async () => (await ctx.api("GET", `/v4/vnets?filter=name%20eq%20'${prefix}-lab'&fields=name`)).body,
  };
  /** The lab as the platform holds it, for a check after each step. */
  async function expectLab(ram: number) {
    const [vm] = await platform.vm();
    expect(vm).toMatchObject({ name: `${prefix}-web`, ram, status: "running" });
    const drives = await platform.drives(vm.machine);
    expect(drives).toEqual([
      expect.objectContaining({ name: "data", disksize: 50 * GiB }),
      expect.objectContaining({ name: "os", disksize: 20 * GiB }),
    ]);
    // The data drive on the looked-up tier 3 (a drive's default is 1), the OS drive on the default.
    expect(drives.map((d: { preferred_tier: unknown }) => String(d.preferred_tier))).toEqual(["3", "1"]);
    expect(await platform.nics(vm.machine)).toEqual([expect.objectContaining({ name: "eth0", vnet: `${prefix}-lab` })]);
    expect(await platform.vnets()).toHaveLength(1);
  }
  /** Requests other than reads that the emulator counted since the last reset. */
  async function mutatingRequests() {
    return (await ctx.requestCounts()).entries.filter((e) => e.method !== "GET");
  }

  test("preview plans the lab and sends no mutating request", async () => {
    await ctx.resetRequestCounts();
    const preview = await ctx.stack.preview(collect(ctx));
    expect(preview.changeSummary).toMatchObject({ create: 7 }); // the stack, a vnet, a VM, two drives, a NIC, a key
    expect(await mutatingRequests()).toEqual([]);
    expect(await platform.vm()).toEqual([]);
  }, 300_000);

  test("up creates the vnet, the running VM, its two drives (the data one on the looked-up tier), its NIC and the key", async () => {
    const up = await ctx.stack.up(collect(ctx));
    expect(up.outputs.status.value).toBe("running");
    expect(up.outputs.dataTier).toEqual({ value: 3, secret: false }); // the look-up's answer, as the program got it
    await expectLab(2048);
  }, 300_000);

  test("the key's secret is a secret output of the stack, and it authenticates", async () => {
    const output = (await ctx.stack.outputs()).labKey;
    expect(output.secret).toBe(true);
    labKey = output.value;
    expect(await statusWithKey(ctx.emulator, labKey)).toBe(200);
  });

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

  test(`a bad input fails preview naming the field as the program spells it (${cpuCores})`, async () => {
    await ctx.stack.setConfig("cpuCores", { value: "-1" });
    const failed = await ctx.stack.preview(collect(ctx)).then(
      () => "",
      (e: Error) => errorLines(e.message),
    );
    await ctx.stack.removeConfig("cpuCores");
    const line = /vplatform:index:VirtualMachine resource 'web': property cpuCores value \{-1\} has a problem: [^|]*\)/.exec(failed)?.[0];
    expect(line).toContain(cpuCores);
    expect(fs.readFileSync(path.join(findRepoRoot(), guide), "utf8")).toContain(`\n${line}\n`);
  }, 300_000);

  test("destroy removes everything it made, the key too", async () => {
    await ctx.stack.destroy(collect(ctx));
    expect(await platform.vm()).toEqual([]);
    expect(await platform.vnets()).toEqual([]);
    expect(await statusWithKey(ctx.emulator, labKey)).toBe(401);
  }, 300_000);

  test("the secrets (the provider's API key from the stack config, the lab key's secret) are in no engine output and no state file", () => {
    for (const secret of [ctx.emulator.apiKey, labKey]) {
      expect(secret).toMatch(/\S{16}/);
      expect(ctx.output.join("")).not.toContain(secret);
      expect(storedState(ctx)).not.toContain(secret);
    }
    expect(ctx.output.join("")).toMatch(/labKey\s*:\s*\[secret\]/); // the stack's outputs as up printed them
  });
}
