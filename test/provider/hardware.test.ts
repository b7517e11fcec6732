import { type Lab, checkedCreate, mutating, providers, startLab } from "./harness";

let lab: Lab;
let vm: { id: string; outs: Record<string, any> };
let vnetId: string;
beforeAll(async () => {
  lab = await startLab();
  vm = await checkedCreate(providers.VirtualMachine(), { name: "hw-web", powerState: "stopped", allowHotplug: true });
  vnetId = (await checkedCreate(providers.Vnet(), { name: "hw-net", network: "10.30.0.0/24" })).id;
});
afterAll(() => lab.close());

const GiB = 1024 ** 3;
const driveArgs = (name: string, size = 20) => ({
  machine: vm.outs.machineKey,
  name,
  media: "disk",
  interface: "virtio-scsi",
  disksize: size * GiB,
  preferredTier: 3,
});

describe("check of hardware", () => {
  test("rejects a VM key where the machine key belongs, naming the right value and the output in TypeScript and Pulumi YAML", async () => {
    const r = await providers.Drive().check({}, { ...driveArgs("os"), machine: vm.id });
    expect(r.failures).toEqual([
      {
        property: "machine",
        reason:
          `machine: '${vm.id}' is the VM key of VM 'hw-web'; hardware takes the machine key ('${vm.outs.machineKey}'): ` +
          "give the VM resource's machineKey output, not its id (TypeScript: `web.machineKey`; Pulumi YAML: `${web.machineKey}`)",
      },
    ]);
  });

  test("tolerates an unknown machine during preview and sends no mutating request", async () => {
    await lab.resetRequests();
    const r = await providers.Drive().check({}, { ...driveArgs("os"), machine: "04da6b54-80e4-46f7-96ec-b56ff0331ba9" });
    expect(r.failures ?? []).toEqual([]);
    const r2 = await providers.Drive().check({}, driveArgs("os"));
    expect(r2.failures ?? []).toEqual([]);
    expect(mutating((await lab.requests()).entries)).toEqual([]);
  });
});

describe("a preview of a drive's grow while its VM is updated in place (its machineKey unknown to the engine)", () => {
  test("keeps the recorded machine: only disksize changes, no re-attach", async () => {
    const d = await checkedCreate(providers.Drive(), { ...driveArgs("grow-with-vm"), vm: vm.id });
    const proposed = { ...d.inputs, machine: "04da6b54-80e4-46f7-96ec-b56ff0331ba9", disksize: 30 * GiB };
    const news = (await providers.Drive().check(d.inputs, proposed)).inputs;
    expect(news).toMatchObject({ machine: vm.outs.machineKey, disksize: 30 * GiB });
    const log = jest.spyOn(console, "log").mockImplementation(() => undefined);
    const diff = await providers.Drive().diff(d.id, d.outs, news);
    log.mockRestore();
    expect(diff).toMatchObject({ changes: true, replaces: [] });
    await providers.Drive().delete(d.id, d.outs);
  });
});

describe("Drive", () => {
  test("create, read without drift, grow in place, delete", async () => {
    const d = await checkedCreate(providers.Drive(), driveArgs("grow"));
    const read = await providers.Drive().read(d.id, d.outs);
    expect(read.inputs).toEqual(d.inputs);
    const bigger = (await providers.Drive().check(d.inputs, { ...d.inputs, disksize: 30 * GiB })).inputs;
    const diff = await providers.Drive().diff(d.id, d.outs, bigger);
    expect(diff).toMatchObject({ changes: true, replaces: [] });
    await providers.Drive().update(d.id, d.outs, bigger);
    expect((await lab.api("GET", `machine_drives/${d.id}?fields=disksize`)).disksize).toBe(30 * GiB);
    await providers.Drive().delete(d.id, { ...d.outs, disksize: 30 * GiB });
    expect((await providers.Drive().read(d.id, d.outs)).id).toBe("");
  });

  test("a smaller disksize is a replacement, said loudly at preview", async () => {
    const d = await checkedCreate(providers.Drive(), driveArgs("shrink"));
    const smaller = (await providers.Drive().check(d.inputs, { ...d.inputs, disksize: 10 * GiB })).inputs;
    const log = jest.spyOn(console, "log").mockImplementation(() => undefined);
    const diff = await providers.Drive().diff(d.id, d.outs, smaller);
    const printed = log.mock.calls.flat().join("\n");
    log.mockRestore();
    expect(diff.replaces).toContain("disksize");
    expect(printed).toMatch(/SHRINK/);
  });

  test("removing a drive from a running hotplug VM unplugs once, then deletes", async () => {
    const d = await checkedCreate(providers.Drive(), driveArgs("hot"));
    await lab.api("POST", "vm_actions", { vm: vm.id, action: "poweron", params: {} });
    // Only a running machine takes a hot-unplug; wait out `starting`.
    for (let i = 0; i < 100 && (await lab.api("GET", `machine_status/${vm.outs.machineKey}?fields=status`)).status !== "running"; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    await lab.resetRequests();
    await providers.Drive().delete(d.id, d.outs);
    const entries = (await lab.requests()).entries;
    const unplugs = entries.filter((e) => e.method === "POST" && e.table === "vm_actions");
    expect(unplugs.reduce((n, e) => n + e.count, 0)).toBe(1);
    await expect(lab.api("GET", `machine_drives/${d.id}`)).rejects.toMatchObject({ status: 404 });
    await lab.api("POST", "vm_actions", { vm: vm.id, action: "kill" });
  });
});

describe("Nic", () => {
  test("enabled defaults to true; create, read, update vnet-independent fields, delete", async () => {
    const n = await checkedCreate(providers.Nic(), { machine: vm.outs.machineKey, vnet: vnetId, interface: "virtio" });
    expect(n.outs.enabled).toBe(true);
    expect((await lab.api("GET", `machine_nics/${n.id}?fields=enabled`)).enabled).toBe(true);
    const read = await providers.Nic().read(n.id, n.outs);
    expect(read.inputs).toEqual(n.inputs);
    const off = (await providers.Nic().check(n.inputs, { ...n.inputs, enabled: false })).inputs;
    await providers.Nic().update(n.id, n.outs, off);
    expect((await lab.api("GET", `machine_nics/${n.id}?fields=enabled`)).enabled).toBe(false);
    await providers.Nic().delete(n.id, off);
    expect((await providers.Nic().read(n.id, off)).id).toBe("");
  });
});

describe("Device", () => {
  test("create outputs the platform's uuid; delete removes it", async () => {
    const groups = await lab.api("GET", "resource_groups?fields=uuid,name&limit=1");
    const dev = await checkedCreate(providers.Device(), { machine: vm.outs.machineKey, resourceGroup: groups[0].uuid, settingsArgs: {} });
    expect(dev.outs.uuid).toMatch(/\S/);
    await providers.Device().delete(dev.id, dev.outs);
    expect((await providers.Device().read(dev.id, dev.outs)).id).toBe("");
  });
});

describe("hardware added to a running VM without hotplug", () => {
  test("when the VM cannot be started again, the new row is recorded as partially created: no second NIC on the next up", async () => {
    const vm = await checkedCreate(providers.VirtualMachine(), { name: "partial-hw", allowHotplug: false, powerState: "running" });
    // More RAM than any node has: accepted while running, fatal at the next start (507).
    await lab.api("PUT", `vms/${vm.id}`, { ram: 1048576 });
    const net = await checkedCreate(providers.Vnet(), { name: "partial-net" });
    const inputs = (await providers.Nic().check({}, { machine: vm.outs.machineKey, vnet: net.id, name: "eth9" })).inputs;
    const err = await providers
      .Nic()
      .create(inputs)
      .catch((e: unknown) => e);
    const nics = await lab.api("GET", `machine_nics?filter=machine eq ${vm.outs.machineKey} and name eq 'eth9'&fields=$key`);
    expect(nics).toHaveLength(1);
    expect(err).toMatchObject({ name: "PartialCreateError", id: String(nics[0].$key) });
    expect((err as Error).message).toMatch(/NIC 'eth9' of machine \d+ was added \(key \d+\) but .*insufficient cluster resources/);
  });
});
