import { type Lab, checkedCreate, providers, startLab } from "./harness";

let lab: Lab;
beforeAll(async () => {
  lab = await startLab();
});
afterAll(() => lab.close());

const vmProvider = () => providers.VirtualMachine();
const liveStatus = async (machineKey: string) => (await lab.api("GET", `machine_status/${machineKey}?fields=running,status`)).status;

describe("VirtualMachine lifecycle", () => {
  test("create powers the VM on and outputs echo inputs plus machineKey and status", async () => {
    const { id, outs, inputs } = await checkedCreate(vmProvider(), {
      name: "life-1",
      cpuCores: 2,
      ram: 2048,
      machineType: "q35",
      powerState: "running",
    });
    expect(outs).toMatchObject({ ...inputs, status: "running", running: true });
    expect(outs.machineKey).toMatch(/^\d+$/);
    expect(outs.machineKey).not.toBe(id);
    expect(await liveStatus(outs.machineKey)).toBe("running");
    expect(JSON.parse(JSON.stringify(outs))).toEqual(outs); // plain JSON
  });

  test("read after create shows no drift (inputs equal the checked inputs)", async () => {
    const { id, outs, inputs } = await checkedCreate(vmProvider(), { name: "life-2", cpuCores: 1, ram: 1024, powerState: "stopped" });
    const read = await vmProvider().read(id, outs);
    expect(read.id).toBe(id);
    expect(read.inputs).toEqual(inputs);
    const diff = await vmProvider().diff(id, read.props, inputs);
    expect(diff.changes).toBe(false);
  });

  test("refresh detects power changed outside Pulumi from the machine status", async () => {
    const { id, outs } = await checkedCreate(vmProvider(), { name: "life-3", powerState: "running" });
    await lab.api("POST", "vm_actions", { vm: id, action: "kill" });
    await waitUntil(async () => (await liveStatus(outs.machineKey)) === "stopped");
    const read = await vmProvider().read(id, outs);
    expect(read.inputs.powerState).toBe("stopped");
    expect(read.props.running).toBe(false);
  });

  test("refresh detects a setting changed outside Pulumi", async () => {
    const { id, outs } = await checkedCreate(vmProvider(), { name: "life-4", ram: 1024, powerState: "stopped" });
    await lab.api("PUT", `vms/${id}`, { ram: 4096 });
    const read = await vmProvider().read(id, outs);
    expect(read.inputs.ram).toBe(4096);
  });

  test("refresh surfaces the platform's need_restart after a change made outside Pulumi to a running VM", async () => {
    const { id, outs } = await checkedCreate(vmProvider(), { name: "life-nr", ram: 1024, powerState: "running" });
    expect(outs.needRestart).toBe(false);
    expect((await vmProvider().read(id, outs)).props.needRestart).toBe(false);
    await lab.api("PUT", `vms/${id}`, { ram: 2048 });
    expect((await vmProvider().read(id, outs)).props.needRestart).toBe(true);
  });

  test("a VM deleted outside Pulumi reads as gone (empty id)", async () => {
    const { id, outs } = await checkedCreate(vmProvider(), { name: "life-5", powerState: "stopped" });
    await lab.api("DELETE", `vms/${id}`);
    expect((await vmProvider().read(id, outs)).id).toBe("");
  });

  test("update of RAM on a running VM restarts it under the restart policy and ends running", async () => {
    const { id, outs, inputs } = await checkedCreate(vmProvider(), {
      name: "life-6",
      ram: 1024,
      powerState: "running",
      powerCyclePolicy: "restart",
    });
    const news = (await vmProvider().check(inputs, { ...inputs, ram: 2048 })).inputs;
    const updated = (await vmProvider().update(id, outs, news)).outs;
    expect(updated.ram).toBe(2048);
    expect((await lab.api("GET", `vms/${id}?fields=ram`)).ram).toBe(2048);
    expect(await liveStatus(outs.machineKey)).toBe("running");
  });

  test("update needing a power cycle under the refuse policy fails clearly and changes nothing", async () => {
    const { id, outs, inputs } = await checkedCreate(vmProvider(), {
      name: "life-7",
      ram: 1024,
      powerState: "running",
      powerCyclePolicy: "refuse",
    });
    const news = (await vmProvider().check(inputs, { ...inputs, ram: 2048 })).inputs;
    await expect(vmProvider().update(id, outs, news)).rejects.toThrow(
      /ram 1024 → 2048 needs a power cycle of VM 'life-7' and powerCyclePolicy is 'refuse'/,
    );
    expect((await lab.api("GET", `vms/${id}?fields=ram`)).ram).toBe(1024);
    expect(await liveStatus(outs.machineKey)).toBe("running");
  });

  test("desired powerState is enforced on update", async () => {
    const { id, outs, inputs } = await checkedCreate(vmProvider(), { name: "life-8", powerState: "running" });
    const news = (await vmProvider().check(inputs, { ...inputs, powerState: "stopped" })).inputs;
    await vmProvider().update(id, outs, news);
    expect(await liveStatus(outs.machineKey)).toBe("stopped");
  });

  test("deleting a running VM powers it off first and removes the row", async () => {
    const { id, outs } = await checkedCreate(vmProvider(), { name: "life-9", powerState: "running" });
    await lab.resetRequests();
    await vmProvider().delete(id, outs);
    await expect(lab.api("GET", `vms/${id}`)).rejects.toMatchObject({ status: 404 });
    const actions = (await lab.requests()).entries.filter((e) => e.table === "vm_actions");
    expect(actions.length).toBeGreaterThanOrEqual(1); // the poweroff
  });
});

async function waitUntil(cond: () => Promise<boolean>, tries = 100) {
  for (let i = 0; i < tries; i++) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("condition not reached");
}
