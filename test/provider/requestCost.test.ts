import { type Lab, checkedCreate, providers, startLab } from "./harness";

let lab: Lab;
beforeAll(async () => {
  lab = await startLab();
});
afterAll(() => lab.close());

/**
 * The request budget of one VM with two drives and one NIC: create + power on,
 * refresh, destroy. Printed for the report; bounded so regressions show.
 */
describe("request cost", () => {
  test("one VM with two drives and one NIC: create, refresh and destroy stay cheap", async () => {
    const net = await checkedCreate(providers.Vnet(), { name: "cost-net", network: "10.50.0.0/24" });
    await lab.resetRequests();
    const phases: Record<string, number> = {};
    const measure = async (phase: string, work: () => Promise<unknown>) => {
      await lab.resetRequests();
      await work();
      phases[phase] = (await lab.requests()).total;
    };
    let vm!: Awaited<ReturnType<typeof checkedCreate>>;
    const hw: { p: any; r: Awaited<ReturnType<typeof checkedCreate>> }[] = [];
    await measure("create", async () => {
      vm = await checkedCreate(providers.VirtualMachine(), { name: "cost-web", cpuCores: 2, ram: 2048, powerState: "stopped" });
      for (const name of ["os", "data"]) {
        hw.push({
          p: providers.Drive(),
          r: await checkedCreate(providers.Drive(), {
            machine: vm.outs.machineKey,
            name,
            media: "disk",
            interface: "virtio-scsi",
            disksize: 10 * 1024 ** 3,
            preferredTier: 3,
          }),
        });
      }
      hw.push({
        p: providers.Nic(),
        r: await checkedCreate(providers.Nic(), { machine: vm.outs.machineKey, vnet: net.id, interface: "virtio" }),
      });
    });
    await measure("powerOn", async () => {
      const news = (await providers.VirtualMachine().check(vm.inputs, { ...vm.inputs, powerState: "running" })).inputs;
      vm.outs = (await providers.VirtualMachine().update(vm.id, vm.outs, news)).outs;
    });
    await measure("refresh", async () => {
      await providers.VirtualMachine().read(vm.id, vm.outs);
      for (const h of hw) await h.p.read(h.r.id, h.r.outs);
    });
    await measure("destroy", async () => {
      for (const h of hw.reverse()) await h.p.delete(h.r.id, h.r.outs);
      await providers.VirtualMachine().delete(vm.id, vm.outs);
    });
    console.log(`vplatform request cost (1 VM, 2 drives, 1 NIC): ${JSON.stringify(phases)}`);
    expect(phases.refresh).toBe(3); // one GET per table: the second drive is answered from the run's copy of machine_drives
    expect(phases.create + phases.powerOn + phases.refresh + phases.destroy).toBeLessThan(60);
  });
});

describe("a refresh of API keys is batched like every refresh", () => {
  test("eight keys of one user, refreshed together through the door, cost one GET of user_api_keys", async () => {
    const user = await checkedCreate(providers.User(), { name: "cost-ci" });
    const keys = await Promise.all(
      Array.from({ length: 8 }, (_, i) => checkedCreate(providers.ApiKey(), { user: user.id, name: `cost-key-${i}` })),
    );
    await lab.resetRequests();
    const read = await Promise.all(keys.map((k) => providers.ApiKey().read(k.id, k.outs)));
    expect(read.map((r) => r.id)).toEqual(keys.map((k) => k.id));
    // The secret is not the platform's to answer again: refresh keeps the recorded one.
    expect(read.map((r) => r.props.secret)).toEqual(keys.map((k) => k.outs.secret));
    const gets = (await lab.requests()).entries.filter((e) => e.method === "GET" && e.table === "user_api_keys");
    expect(gets.reduce((n, e) => n + e.count, 0)).toBe(1);
  });
});
