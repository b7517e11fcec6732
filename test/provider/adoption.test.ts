import { type Lab, checkedCreate, providers, startLab } from "./harness";

let lab: Lab;
beforeAll(async () => {
  lab = await startLab();
});
afterAll(() => lab.close());

const vmsNamed = async (name: string) => lab.api("GET", `vms?filter=${encodeURIComponent(`name eq '${name}'`)}&fields=$key`);
const GiB = 2 ** 30;

describe("adopt: true takes over the row with the declared name", () => {
  test("a matching VM is taken over instead of created", async () => {
    const made = await lab.api("POST", "vms", { name: "adopt-ok", cpu_cores: 2, ram: 2048 });
    const vm = await checkedCreate(providers.VirtualMachine(), {
      name: "adopt-ok",
      cpuCores: 2,
      ram: 2048,
      adopt: true,
      powerState: "stopped",
    });
    expect(vm.id).toBe(String(made.$key));
    expect(await vmsNamed("adopt-ok")).toHaveLength(1);
  });

  test("a VM that differs is refused, listing the fields", async () => {
    await lab.api("POST", "vms", { name: "adopt-bad", cpu_cores: 4, ram: 2048 });
    await expect(
      checkedCreate(providers.VirtualMachine(), { name: "adopt-bad", cpuCores: 2, ram: 2048, adopt: true, powerState: "stopped" }),
    ).rejects.toThrow(/cpuCores \(declared 2, actual 4\)/);
  });

  test("without adopt, an existing name is a clear error with the hint (also at create, past the check)", async () => {
    await lab.api("POST", "vms", { name: "taken" });
    await expect(providers.VirtualMachine().create({ name: "taken", powerState: "stopped" })).rejects.toThrow(/adopt: true/);
  });

  test("nothing by that name is an error, and nothing is created", async () => {
    await expect(checkedCreate(providers.VirtualMachine(), { name: "adopt-none", adopt: true })).rejects.toThrow(
      /adopt: no VM 'adopt-none' exists/,
    );
    expect(await vmsNamed("adopt-none")).toEqual([]);
  });
});

// Names unique on the platform (a VM's, a vnet's): a new one named like a row there would fail the `up` with 409.
describe.each([
  { kind: "VirtualMachine", table: "vms", declared: (name: string) => ({ name, powerState: "stopped" }) },
  { kind: "Vnet", table: "vnets", declared: (name: string) => ({ name }) },
] as const)("a new $kind named like a row already on the platform", ({ kind, table, declared }) => {
  const provider = () => providers[kind]();

  test("is refused at preview (check), naming the field and saying to adopt or rename", async () => {
    const made = await lab.api("POST", table, { name: `taken-${table}` });
    await lab.newRun();
    const checked = await provider().check({}, declared(`taken-${table}`));
    expect(checked.failures).toEqual([
      {
        property: "name",
        reason: expect.stringMatching(
          new RegExp(`already exists on the platform \\(key ${made.$key}\\).*set adopt: true.*or choose another name`),
        ),
      },
    ]);
  });

  test("is let through when the resource already had the name, with adopt, and when the row carries its own create marker", async () => {
    await lab.api("POST", table, { name: `ours-${table}`, description: "[vplatform:marker-of-ours]" });
    await lab.newRun();
    const p = provider();
    const name = `ours-${table}`;
    expect((await p.check({ name }, declared(name))).failures).toBeUndefined();
    expect((await p.check({}, { ...declared(name), adopt: true })).failures).toBeUndefined();
    expect((await p.check({}, { ...declared(name), __marker: "marker-of-ours" })).failures).toBeUndefined();
    expect((await p.check({}, { ...declared(name), __marker: "marker-of-other" })).failures).toHaveLength(1);
  });
});

describe("adopt: <key> takes over exactly that row", () => {
  test("a VM by key, even when the declared name would find another", async () => {
    const made = await lab.api("POST", "vms", { name: "adopt-key", cpu_cores: 2 });
    const vm = await checkedCreate(providers.VirtualMachine(), { name: "adopt-key", cpuCores: 2, adopt: String(made.$key) });
    expect(vm.id).toBe(String(made.$key));
    expect(vm.outs.machineKey).toBe(String(made.response.machine));
  });

  test("a key given as a number is the same key", async () => {
    const made = await lab.api("POST", "vms", { name: "adopt-num" });
    const vm = await checkedCreate(providers.VirtualMachine(), { name: "adopt-num", adopt: Number(made.$key) });
    expect(vm.id).toBe(String(made.$key));
    expect(vm.inputs.adopt).toBe(String(made.$key));
  });

  test("a key whose row has another name is refused: the declaration must match", async () => {
    const made = await lab.api("POST", "vms", { name: "adopt-other" });
    await expect(checkedCreate(providers.VirtualMachine(), { name: "adopt-renamed", adopt: String(made.$key) })).rejects.toThrow(
      /name \(declared "adopt-renamed", actual "adopt-other"\)/,
    );
  });

  test("a missing key is an error naming the key", async () => {
    await expect(checkedCreate(providers.VirtualMachine(), { name: "adopt-missing", adopt: "999999" })).rejects.toThrow(
      /adopt: no VM 'adopt-missing' with key '999999' exists/,
    );
    expect(await vmsNamed("adopt-missing")).toEqual([]);
  });

  test("the key of a snapshot is refused", async () => {
    const made = await lab.api("POST", "vms", { name: "adopt-snapped" });
    await lab.api("POST", "vm_actions", { vm: made.$key, action: "snapshot", params: { name: "snap-1" } });
    const snaps = await lab.api(
      "GET",
      `vms?filter=${encodeURIComponent(`is_snapshot eq true and parent_vm eq ${made.$key}`)}&fields=$key,name`,
    );
    await expect(checkedCreate(providers.VirtualMachine(), { name: snaps[0].name, adopt: String(snaps[0].$key) })).rejects.toThrow(
      /is the key of a snapshot/,
    );
  });

  test("a drive by key must belong to the declared machine", async () => {
    const vm = await lab.api("POST", "vms", { name: "adopt-hw" });
    const other = await lab.api("POST", "vms", { name: "adopt-hw-2" });
    const drive = await lab.api("POST", "machine_drives", {
      machine: Number(vm.response.machine),
      name: "data",
      media: "disk",
      disksize: GiB,
    });
    const declared = { name: "data", media: "disk", disksize: GiB, adopt: String(drive.$key) };
    const adopted = await checkedCreate(providers.Drive(), { ...declared, machine: String(vm.response.machine) });
    expect(adopted.id).toBe(String(drive.$key));
    await expect(checkedCreate(providers.Drive(), { ...declared, machine: String(other.response.machine) })).rejects.toThrow(
      /machine \(declared/,
    );
  });

  test("a vnet by key", async () => {
    const net = await lab.api("POST", "vnets", { name: "adopt-net", network: "10.77.0.0/24" });
    const adopted = await checkedCreate(providers.Vnet(), { name: "adopt-net", network: "10.77.0.0/24", adopt: String(net.$key) });
    expect(adopted.id).toBe(String(net.$key));
    const read = await providers.Vnet().read(adopted.id, adopted.outs);
    expect((await providers.Vnet().diff(adopted.id, read.props, adopted.inputs)).changes).toBe(false);
  });
});
