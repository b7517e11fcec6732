import { type Lab, checkedCreate, providers, startLab } from "./harness";

let lab: Lab;
let netId: string;
let gpuGroup: string;
beforeAll(async () => {
  lab = await startLab();
  netId = (await checkedCreate(providers.Vnet(), { name: "rh-net" })).id;
  [{ uuid: gpuGroup }] = await lab.api("GET", "resource_groups?filter=name eq 'nvidia-a100'&fields=uuid");
});
afterAll(() => lab.close());

const GiB = 1024 ** 3;
const status = async (machineKey: string) => (await lab.api("GET", `machine_status/${machineKey}?fields=status`)).status;
const runningVm = (name: string, extra: Record<string, unknown> = {}) =>
  checkedCreate(providers.VirtualMachine(), { name, powerState: "running", allowHotplug: false, ...extra });

describe("changes to one machine are serialized", () => {
  test("drives, NICs and a device created at once on a running VM without hotplug all land, without a 409, sharing ONE restart", async () => {
    const vm = await runningVm("rh-1");
    const m = vm.outs.machineKey;
    await lab.resetRequests();
    const made = await Promise.allSettled([
      checkedCreate(providers.Drive(), { machine: m, name: "a", disksize: GiB }),
      checkedCreate(providers.Drive(), { machine: m, name: "b", disksize: GiB }),
      checkedCreate(providers.Nic(), { machine: m, vnet: netId, name: "eth0" }),
      checkedCreate(providers.Device(), { machine: m, resourceGroup: gpuGroup }),
    ]);
    expect(made.filter((r) => r.status === "rejected")).toEqual([]);
    expect(await lab.api("GET", `machine_drives?filter=machine eq ${m}&fields=name&sort=name`)).toEqual([{ name: "a" }, { name: "b" }]);
    expect(await lab.api("GET", `machine_nics?filter=machine eq ${m}&fields=name`)).toEqual([{ name: "eth0" }]);
    expect(await lab.api("GET", `machine_devices?filter=machine eq ${m}&fields=resource_group`)).toEqual([{ resource_group: gpuGroup }]);
    expect(await status(m)).toBe("running"); // restarted, and running again
    const actions = (await lab.requests()).entries.filter((e) => e.method === "POST" && e.table === "vm_actions");
    expect(actions.reduce((n, e) => n + e.count, 0)).toBe(2); // one poweroff, one poweron
  });

  test("a change queued behind the stopped VM that declares it stopped keeps it stopped", async () => {
    const vm = await runningVm("rh-1b");
    const stopped = (await providers.VirtualMachine().check(vm.inputs, { ...vm.inputs, powerState: "stopped" })).inputs;
    await Promise.all([
      checkedCreate(providers.Drive(), { machine: vm.outs.machineKey, name: "a", disksize: GiB }),
      providers.VirtualMachine().update(vm.id, vm.outs, stopped),
    ]);
    expect(await status(vm.outs.machineKey)).toBe("stopped");
  });
});

describe("a passthrough device and a running VM", () => {
  test("under the restart policy the VM is stopped, the device attached and the VM started again", async () => {
    const vm = await runningVm("rh-2", { allowHotplug: true }); // hotplug does not cover passthrough devices
    const dev = await checkedCreate(providers.Device(), { machine: vm.outs.machineKey, resourceGroup: gpuGroup });
    expect(dev.outs.uuid).toMatch(/\S/);
    expect(await status(vm.outs.machineKey)).toBe("running");
  });

  test("under the refuse policy the create fails naming the policy, and nothing is attached or stopped", async () => {
    const vm = await runningVm("rh-3", { powerCyclePolicy: "refuse" });
    // The SDK copies the VM's policy into its hardware's inputs.
    await expect(
      checkedCreate(providers.Device(), { machine: vm.outs.machineKey, vm: vm.id, powerCyclePolicy: "refuse", resourceGroup: gpuGroup }),
    ).rejects.toThrow(
      /VM 'rh-3' is running and adding device of machine \d+ \(VM has no hotplug\) needs a power cycle, but powerCyclePolicy is "refuse"/,
    );
    expect(await lab.api("GET", `machine_devices?filter=machine eq ${vm.outs.machineKey}&fields=$key`)).toEqual([]);
    expect(await status(vm.outs.machineKey)).toBe("running");
  });

  test("removing it follows the policy too: the VM ends running, the device gone", async () => {
    const vm = await checkedCreate(providers.VirtualMachine(), { name: "rh-4", allowHotplug: false });
    const dev = await checkedCreate(providers.Device(), { machine: vm.outs.machineKey, resourceGroup: gpuGroup });
    await lab.api("POST", "vm_actions", { vm: vm.id, action: "poweron" });
    for (let i = 0; i < 100 && (await status(vm.outs.machineKey)) !== "running"; i++) await new Promise((r) => setTimeout(r, 20));
    await providers.Device().delete(dev.id, dev.outs);
    expect(await lab.api("GET", `machine_devices?filter=machine eq ${vm.outs.machineKey}&fields=$key`)).toEqual([]);
    expect(await status(vm.outs.machineKey)).toBe("running");
  });
});

describe("in-place hardware updates", () => {
  test("a NIC moves to another vnet, a drive changes interface, a device is disabled: same keys", async () => {
    const vm = await checkedCreate(providers.VirtualMachine(), { name: "rh-5" });
    const m = vm.outs.machineKey;
    const other = await checkedCreate(providers.Vnet(), { name: "rh-net-2" });
    const cases = [
      {
        p: providers.Nic(),
        args: { machine: m, vnet: netId, name: "eth0" },
        change: { vnet: other.id },
        table: "machine_nics",
        field: "vnet",
        expected: Number(other.id),
      },
      {
        p: providers.Drive(),
        args: { machine: m, name: "os", disksize: GiB },
        change: { interface: "virtio" },
        table: "machine_drives",
        field: "interface",
        expected: "virtio",
      },
      {
        p: providers.Device(),
        args: { machine: m, resourceGroup: gpuGroup },
        change: { enabled: false },
        table: "machine_devices",
        field: "enabled",
        expected: false,
      },
    ];
    for (const c of cases) {
      const made = await checkedCreate(c.p, c.args);
      const news = (await c.p.check(made.inputs, { ...made.inputs, ...c.change })).inputs;
      expect(await c.p.diff(made.id, made.outs, news)).toMatchObject({ changes: true, replaces: [] });
      await c.p.update(made.id, made.outs, news);
      expect((await lab.api("GET", `${c.table}/${made.id}?fields=${c.field}`))[c.field]).toEqual(c.expected);
    }
  });

  test("a vnet type change is a replacement that deletes first (names are unique)", async () => {
    const v = await checkedCreate(providers.Vnet(), { name: "rh-net-3", type: "internal" });
    const news = (await providers.Vnet().check(v.inputs, { ...v.inputs, type: "external" })).inputs;
    expect(await providers.Vnet().diff(v.id, v.outs, news)).toMatchObject({ changes: true, replaces: ["type"], deleteBeforeReplace: true });
  });
});
