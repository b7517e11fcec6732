// A VM's hardware that its program does not declare (exclusiveHardware), through the dynamic provider against the
// emulator: a clone's copies of its template's NICs are its own (its baseline), declared hardware is its own (the
// create marker; a clone of a template whose hardware is all declared is known to hold none other without a read),
// and a NIC or drive added elsewhere is drift at refresh that the next update removes, alone.
import { type Lab, checkedCreate, providers, startLab } from "./harness";

let lab: Lab;
let net: string;
let other: string;
beforeAll(async () => {
  lab = await startLab();
  net = (await checkedCreate(providers.Vnet(), { name: "stray-net", network: "10.93.0.0/24" })).id;
  other = (await checkedCreate(providers.Vnet(), { name: "stray-other", network: "10.94.0.0/24" })).id;
}, 60_000);
afterAll(() => lab.close());

const nicsOf = async (machine: string) =>
  (
    (await lab.api("GET", `machine_nics?filter=machine%20eq%20${machine}&fields=$key,vnet&sort=+$key`)) as { $key: number; vnet: number }[]
  ).map((n) => `${n.$key}@${n.vnet}`);

describe("a VM with exclusiveHardware", () => {
  test("a clone keeps its copies; a NIC added elsewhere is drift, named, and the update removes it alone", async () => {
    const template = await checkedCreate(providers.VirtualMachine(), { name: "stray-golden", ram: 1024 });
    await lab.api("POST", "machine_nics", { machine: template.outs.machineKey, vnet: net, name: "from-golden" });
    const p = providers.VirtualMachine();
    const vm = await checkedCreate(p, { name: "stray-copy", ram: 1024, cloneFrom: { vm: template.id }, exclusiveHardware: true });
    const machine = vm.outs.machineKey;
    const [copied] = await nicsOf(machine);
    expect(vm.outs.baselineHardware).toBe(`nic:${copied.split("@")[0]}`);
    const declared = await checkedCreate(providers.Nic(), { machine, vnet: net, name: "eth1", __marker: "strayeth1" });

    // Nothing added: the refresh is clean.
    const clean = await p.read(vm.id, vm.outs);
    expect(clean.inputs.exclusiveHardware).toBe(true);
    expect(await p.diff(vm.id, clean.props, vm.inputs)).toMatchObject({ changes: false });

    // A NIC on another network, added with the platform's API: drift, named.
    const stray = await lab.api("POST", "machine_nics", { machine, vnet: other, name: "sneaky" });
    const drifted = await p.read(vm.id, clean.props);
    expect(drifted.inputs.exclusiveHardware).toBe(false);
    expect(drifted.props.strayHardware).toBe(`NIC 'sneaky' (key ${stray.$key}) on vnet ${other}`);
    const log = jest.spyOn(console, "log").mockImplementation(() => undefined);
    const d = await p.diff(vm.id, drifted.props, vm.inputs);
    expect(log.mock.calls.flat().join("\n")).toContain(`the update removes it: NIC 'sneaky' (key ${stray.$key}) on vnet ${other}`);
    log.mockRestore();
    expect(d).toMatchObject({ changes: true, replaces: [] });

    // The update removes it, and only it.
    const outs = (await p.update(vm.id, drifted.props, vm.inputs)).outs;
    expect(await nicsOf(machine)).toEqual([copied, `${declared.id}@${net}`]);
    expect(outs).toMatchObject({ exclusiveHardware: true, strayHardware: "" });
    expect(await p.diff(vm.id, (await p.read(vm.id, outs)).props, vm.inputs)).toMatchObject({ changes: false });
  });

  test("clones of a template whose hardware its program declared: their baseline is empty, known from the template's hardware read once", async () => {
    const template = await checkedCreate(providers.VirtualMachine(), { name: "stray-declared", ram: 1024 });
    await checkedCreate(providers.Drive(), { machine: template.outs.machineKey, name: "os", disksize: 1024 ** 3, preferredTier: 3 });
    await checkedCreate(providers.Nic(), { machine: template.outs.machineKey, vnet: net, name: "eth0" });
    await lab.newRun();
    await lab.resetRequests();
    const p = providers.VirtualMachine();
    const clones = await Promise.all(
      [0, 1, 2, 3, 4, 5].map((i) =>
        checkedCreate(p, { name: `stray-declared-${i}`, ram: 1024, cloneFrom: { vm: template.id }, exclusiveHardware: true }),
      ),
    );
    expect(clones.map((c) => c.outs.baselineHardware)).toEqual(["", "", "", "", "", ""]);
    const { entries } = await lab.requests();
    const reads = (table: string) => entries.filter((e) => e.method === "GET" && e.table === table).reduce((n, e) => n + e.count, 0);
    // The template's drives and NICs, once for all six; none of a clone's own (its copies are marked as the template's are).
    expect([reads("machine_drives"), reads("machine_nics")]).toEqual([1, 1]);

    // Its copies are its own; a drive added elsewhere is still stray.
    const [vm] = clones;
    const clean = await p.read(vm.id, vm.outs);
    expect(clean.inputs.exclusiveHardware).toBe(true);
    await lab.api("POST", "machine_drives", { machine: vm.outs.machineKey, media: "disk", disksize: 1024 ** 3, name: "extra" });
    expect((await p.read(vm.id, clean.props)).props.strayHardware).toMatch(/^drive 'extra' \(key \d+\)$/);
  });

  test("a drive added elsewhere is stray too; a running VM is stopped for its removal and started again", async () => {
    const p = providers.VirtualMachine();
    const vm = await checkedCreate(p, { name: "stray-running", ram: 1024, powerState: "running", exclusiveHardware: true });
    expect(vm.outs.baselineHardware).toBe("");
    const machine = vm.outs.machineKey;
    await lab.api("POST", "machine_drives", { machine, media: "disk", disksize: 1024 ** 3, name: "extra" });
    const drifted = await p.read(vm.id, vm.outs);
    expect(drifted.props.strayHardware).toMatch(/^drive 'extra' \(key \d+\)$/);
    await p.update(vm.id, drifted.props, vm.inputs);
    expect(await lab.api("GET", `machine_drives?filter=machine%20eq%20${machine}&fields=$key`)).toEqual([]);
    expect((await lab.api("GET", `machine_status/${machine}?fields=status`)).status).toBe("running");
  });

  test("declared on an existing VM, it takes what the VM holds as its own and removes nothing", async () => {
    const p = providers.VirtualMachine();
    const vm = await checkedCreate(p, { name: "stray-late", ram: 1024 });
    await lab.api("POST", "machine_nics", { machine: vm.outs.machineKey, vnet: net, name: "handmade" });
    const news = (await p.check(vm.outs, { ...vm.inputs, exclusiveHardware: true })).inputs;
    expect(await p.diff(vm.id, vm.outs, news)).toMatchObject({ changes: true, replaces: [] });
    const outs = (await p.update(vm.id, vm.outs, news)).outs;
    expect(await nicsOf(vm.outs.machineKey)).toHaveLength(1);
    expect(outs.baselineHardware).toMatch(/^nic:\d+$/);
    expect(await p.diff(vm.id, (await p.read(vm.id, outs)).props, news)).toMatchObject({ changes: false });
  });
});
