// The lifecycle every lab program goes through under the real engine, whatever its language (test/e2e/*Program.test.ts):
// the README's lab (a vnet, a running VM with two drives, the OS one on the looked-up tier, and a NIC), named <prefix>-lab
// and <prefix>-web, its RAM from the stack config `ram`; the platform checked after each step.
import { collect, errorLines, storedState, type E2eContext } from "./harness";

const GiB = 1024 ** 3;
const changed = (summary: Record<string, number | undefined>) => Object.keys(summary).filter((k) => k !== "same" && summary[k]);

/** Defines the lifecycle's tests on the stack that `context()` gives once the file's beforeAll has made it. */
export function labLifecycle(prefix: string, context: () => E2eContext) {
  let ctx: E2eContext;
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
    expect(String(drives.find((d: { name: string }) => d.name === "os").preferred_tier)).toBe("1");
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

  test("the API key (a secret in the stack config, passed to the SDK's provider) is in no engine output and no state file", () => {
    expect(ctx.output.join("")).not.toContain(ctx.emulator.apiKey);
    expect(storedState(ctx)).not.toContain(ctx.emulator.apiKey);
  });
}
