import { type Lab, checkedCreate, mutating, providers, startLab } from "./harness";

let lab: Lab;
beforeAll(async () => {
  lab = await startLab();
});
afterAll(() => lab.close());

const vmProvider = () => providers.VirtualMachine();

/** What a preview (check + diff) prints and answers, with the requests it sent. */
async function preview(id: string, outs: Record<string, unknown>, inputs: Record<string, unknown>, change: Record<string, unknown>) {
  const printed: string[] = [];
  const log = jest.spyOn(console, "log").mockImplementation((line: string) => void printed.push(line));
  await lab.resetRequests();
  try {
    const news = (await vmProvider().check(inputs, { ...inputs, ...change })).inputs;
    const diff = await vmProvider()
      .diff(id, outs, news)
      .catch((err: Error) => err);
    return { diff, printed: printed.join("\n"), mutating: mutating((await lab.requests()).entries) };
  } finally {
    log.mockRestore();
  }
}

describe("preview of a VM change says what the update will do to the VM", () => {
  test("a power-cycle change of a running VM announces the restart and sends nothing", async () => {
    const { id, outs, inputs } = await checkedCreate(vmProvider(), { name: "pv-1", cpuCores: 1, powerState: "running" });
    const p = await preview(id, outs, inputs, { cpuCores: 2 });
    expect(p.diff).toMatchObject({ changes: true, replaces: [] });
    expect(p.printed).toMatch(
      /cpuCores 1 → 2 needs a power cycle of VM 'pv-1': the VM will be RESTARTED \(graceful shutdown, forced after 120s\)/,
    );
    expect(p.mutating).toEqual([]);
  });

  test("the same change of a stopped VM needs no restart and says none", async () => {
    const { id, outs, inputs } = await checkedCreate(vmProvider(), { name: "pv-2", cpuCores: 1, powerState: "stopped" });
    const p = await preview(id, outs, inputs, { cpuCores: 2 });
    expect(p.diff).toMatchObject({ changes: true });
    expect(p.printed).not.toMatch(/RESTARTED/);
  });

  test("a next-start change of a running VM is announced as such, without a restart", async () => {
    const { id, outs, inputs } = await checkedCreate(vmProvider(), { name: "pv-3", video: "std", powerState: "running" });
    const p = await preview(id, outs, inputs, { video: "virtio" });
    expect(p.printed).toMatch(/video std → virtio applies at the next start of VM 'pv-3'/);
    expect(p.printed).not.toMatch(/RESTARTED/);
  });

  test("under the refuse policy the preview itself fails, naming the field and the way out", async () => {
    const { id, outs, inputs } = await checkedCreate(vmProvider(), {
      name: "pv-4",
      ram: 1024,
      powerState: "running",
      powerCyclePolicy: "refuse",
    });
    const p = await preview(id, outs, inputs, { ram: 2048 });
    expect(p.diff).toBeInstanceOf(Error);
    expect((p.diff as Error).message).toMatch(
      /ram 1024 → 2048 needs a power cycle of VM 'pv-4' and powerCyclePolicy is 'refuse': set powerCyclePolicy to 'restart', or powerState to 'stopped'/,
    );
    expect(p.mutating).toEqual([]);
  });

  test("under the refuse policy, stopping the VM in the same change is accepted", async () => {
    const { id, outs, inputs } = await checkedCreate(vmProvider(), {
      name: "pv-5",
      ram: 1024,
      powerState: "running",
      powerCyclePolicy: "refuse",
    });
    const p = await preview(id, outs, inputs, { ram: 2048, powerState: "stopped" });
    expect(p.diff).toMatchObject({ changes: true, replaces: [] });
  });

  test("a VM whose power it does not manage may be running: the preview says what happens if it is", async () => {
    const { id, outs, inputs } = await checkedCreate(vmProvider(), { name: "pv-8", cpuCores: 1 });
    const p = await preview(id, outs, inputs, { cpuCores: 2 });
    expect(p.printed).toMatch(/cpuCores 1 → 2 needs a power cycle of VM 'pv-8': if it is running then, the VM will be RESTARTED/);
    const refused = await preview(id, outs, inputs, { cpuCores: 2, powerCyclePolicy: "refuse" });
    expect(refused.diff).toMatchObject({ changes: true });
    expect(refused.printed).toMatch(/if the VM is running at update time, the update fails: cpuCores 1 → 2 needs a power cycle/);
  });

  test("a VM whose power a VmPower manages (YAML environments), read running: under refuse the preview itself fails", async () => {
    const { id, inputs } = await checkedCreate(vmProvider(), { name: "pv-9", ram: 1024, powerCyclePolicy: "refuse" });
    await lab.api("POST", "vm_actions", { vm: id, action: "poweron" });
    let read = await vmProvider().read(id, inputs);
    for (let i = 0; i < 100 && read.props.running !== true; i++) read = await vmProvider().read(id, read.props);
    expect(read.props.running).toBe(true);
    const p = await preview(id, read.props, inputs, { ram: 2048 });
    expect(p.diff).toBeInstanceOf(Error);
    expect((p.diff as Error).message).toMatch(/ram 1024 → 2048 needs a power cycle of VM 'pv-9' and powerCyclePolicy is 'refuse'/);
    expect(p.mutating).toEqual([]);
  });

  test("a versioned machine type reported by the platform is no change from the declared family", async () => {
    const { id, outs, inputs } = await checkedCreate(vmProvider(), { name: "pv-6", machineType: "q35", powerState: "stopped" });
    const read = await vmProvider().read(id, outs);
    const p = await preview(id, read.props, inputs, {});
    expect(p.diff).toMatchObject({ changes: false });
  });

  test("a new cloneFrom replaces the VM, deleting the old one first (the name is unique)", async () => {
    const template = await checkedCreate(vmProvider(), { name: "pv-tpl", powerState: "stopped" });
    const { id, outs, inputs } = await checkedCreate(vmProvider(), { name: "pv-7", powerState: "stopped" });
    const p = await preview(id, outs, inputs, { cloneFrom: { vm: template.id } });
    expect(p.diff).toMatchObject({ changes: true, replaces: ["cloneFrom"], deleteBeforeReplace: true });
    expect(p.printed).toMatch(/VM 'pv-7' is REPLACED/);
  });
});

describe("update runs the plan against the live power state", () => {
  test("a running hotplug VM takes the PUT live and is restarted once", async () => {
    const { id, outs, inputs } = await checkedCreate(vmProvider(), {
      name: "up-1",
      cpuCores: 1,
      ram: 1024,
      allowHotplug: true,
      powerState: "running",
    });
    const news = (await vmProvider().check(inputs, { ...inputs, cpuCores: 2, ram: 2048 })).inputs;
    await lab.resetRequests();
    const updated = (await vmProvider().update(id, outs, news)).outs;
    expect(updated).toMatchObject({ cpuCores: 2, ram: 2048, running: true, status: "running" });
    const live = await lab.api("GET", `vms/${id}?fields=cpu_cores,ram,need_restart`);
    expect(live).toMatchObject({ cpu_cores: 2, ram: 2048, need_restart: false });
    const posts = (await lab.requests()).entries.filter((e) => e.method === "POST" && e.table === "vm_actions");
    expect(posts.reduce((n, e) => n + e.count, 0)).toBe(2); // one poweroff, one poweron
  });

  test("a VM stopped outside Pulumi gets the change without any power action", async () => {
    const { id, outs, inputs } = await checkedCreate(vmProvider(), { name: "up-2", ram: 1024 });
    const news = (await vmProvider().check(inputs, { ...inputs, ram: 2048 })).inputs;
    await lab.resetRequests();
    await vmProvider().update(id, { ...outs, running: true }, news); // stale record: the live state decides
    expect((await lab.requests()).entries.filter((e) => e.table === "vm_actions")).toEqual([]);
    expect((await lab.api("GET", `vms/${id}?fields=ram`)).ram).toBe(2048);
  });

  test("a VM deleted outside Pulumi fails the update with the refresh hint", async () => {
    const { id, outs, inputs } = await checkedCreate(vmProvider(), { name: "up-3" });
    await lab.api("DELETE", `vms/${id}`);
    const news = (await vmProvider().check(inputs, { ...inputs, ram: 2048 })).inputs;
    await expect(vmProvider().update(id, outs, news)).rejects.toThrow(/no longer exists; run `pulumi refresh`/);
  });
});
