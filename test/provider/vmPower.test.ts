import { type Lab, checkedCreate, providers, startLab } from "./harness";

let lab: Lab;
beforeAll(async () => {
  lab = await startLab();
});
afterAll(() => lab.close());

const liveStatus = async (machineKey: string) => (await lab.api("GET", `machine_status/${machineKey}?fields=status`)).status;
const vmActionCount = async () => (await lab.requests()).entries.filter((e) => e.table === "vm_actions").reduce((n, e) => n + e.count, 0);

describe("VmPower: a VM's power state as a resource ordered after its hardware", () => {
  test("a VM with a passthrough device is started once, after the device: no start-stop-start", async () => {
    const vm = await checkedCreate(providers.VirtualMachine(), { name: "pw-1" });
    const [group] = await lab.api("GET", "resource_groups?filter=name eq 'nvidia-a100'&fields=uuid");
    await lab.resetRequests();
    await checkedCreate(providers.Device(), { machine: vm.outs.machineKey, resourceGroup: group.uuid });
    const power = await checkedCreate(providers.VmPower(), { vm: vm.id, state: "running" });
    expect(power.outs).toMatchObject({ vm: vm.id, state: "running", machineKey: vm.outs.machineKey, running: true, status: "running" });
    expect(await liveStatus(vm.outs.machineKey)).toBe("running");
    expect(await vmActionCount()).toBe(1); // the poweron
  });

  test("refresh reads the live state; a VM stopped outside Pulumi shows as drift and update starts it", async () => {
    const vm = await checkedCreate(providers.VirtualMachine(), { name: "pw-2" });
    const power = await checkedCreate(providers.VmPower(), { vm: vm.id, state: "running" });
    expect((await providers.VmPower().read(power.id, power.outs)).inputs).toEqual(power.inputs);
    await lab.api("POST", "vm_actions", { vm: vm.id, action: "kill" });
    for (let i = 0; i < 100 && (await liveStatus(vm.outs.machineKey)) !== "stopped"; i++) await new Promise((r) => setTimeout(r, 20));
    const read = await providers.VmPower().read(power.id, power.outs);
    expect(read.inputs.state).toBe("stopped");
    expect((await providers.VmPower().diff(power.id, read.props, power.inputs)).changes).toBe(true);
    await providers.VmPower().update(power.id, read.props, power.inputs);
    expect(await liveStatus(vm.outs.machineKey)).toBe("running");
  });

  test("state stopped shuts the VM down; deleting the resource leaves the VM as it is", async () => {
    const vm = await checkedCreate(providers.VirtualMachine(), { name: "pw-3", powerState: "running" });
    const power = await checkedCreate(providers.VmPower(), { vm: vm.id, state: "stopped" });
    expect(await liveStatus(vm.outs.machineKey)).toBe("stopped");
    await lab.resetRequests();
    await providers.VmPower().delete(power.id, power.outs);
    expect(await lab.requests()).toMatchObject({ total: 0 });
  });

  test("a missing VM is named in the error; a VM deleted later reads as gone", async () => {
    await expect(checkedCreate(providers.VmPower(), { vm: "999999", state: "running" })).rejects.toThrow(/vm: no VM with key '999999'/);
    const vm = await checkedCreate(providers.VirtualMachine(), { name: "pw-4" });
    const power = await checkedCreate(providers.VmPower(), { vm: vm.id, state: "stopped" });
    await lab.api("DELETE", `vms/${vm.id}`);
    expect((await providers.VmPower().read(power.id, power.outs)).id).toBe("");
  });

  test("check names a bad state; another VM replaces the resource", async () => {
    const bad = await providers.VmPower().check({}, { vm: "1", state: "on" });
    expect(bad.failures![0].property).toBe("state");
    const d = await providers.VmPower().diff("1", { vm: "1", state: "running" }, { vm: "2", state: "running" });
    expect(d).toMatchObject({ changes: true, replaces: ["vm"] });
  });
});
