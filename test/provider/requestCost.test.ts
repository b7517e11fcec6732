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
    expect(phases.refresh).toBe(4); // one GET per resource
    expect(phases.create + phases.powerOn + phases.refresh + phases.destroy).toBeLessThan(60);
  });
});
