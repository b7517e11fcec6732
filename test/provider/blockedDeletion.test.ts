/**
 * A vnet whose NICs go with their VMs (deletedWith) waits for those VMs' deletions instead of resending its
 * DELETE, and stops waiting for what will not come: a deletion that failed, or none at all.
 */
import { START_GRACE_MS } from "../../provider/reconcile/deletions";
import { type Lab, checkedCreate, providers, startLab } from "./harness";

let lab: Lab;
beforeAll(async () => {
  lab = await startLab();
});
afterEach(() => lab.hook("DELETE", "/_emulator/faults"));
afterAll(() => lab.close());

/** A vnet and a VM (powerState as given) with a NIC on it, as a lab declares them. */
async function vmOnVnet(tag: string, powerState: "running" | "stopped") {
  const vnet = await checkedCreate(providers.Vnet(), { name: `${tag}-net`, network: "10.61.0.0/24" });
  const vm = await checkedCreate(providers.VirtualMachine(), { name: `${tag}-vm`, powerState });
  await checkedCreate(providers.Nic(), { machine: vm.outs.machineKey, vnet: vnet.id });
  return {
    deleteVnet: () => providers.Vnet().delete(vnet.id, vnet.outs),
    deleteVm: () => providers.VirtualMachine().delete(vm.id, vm.outs),
    vmKey: vm.id,
  };
}

const vnetDeletes = async () =>
  (await lab.requests()).entries.filter((e) => e.table === "vnets" && e.method === "DELETE").reduce((n, e) => n + e.count, 0);
const settled = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: Error) => e,
  );

describe("a vnet waiting for the VMs whose NICs use it", () => {
  test("deletes once they are gone, in the same run, sending its DELETE only before and after the wait", async () => {
    const lab1 = await vmOnVnet("bd-ok", "running");
    await lab.resetRequests();
    const vnet = settled(lab1.deleteVnet());
    await expect(lab1.deleteVm()).resolves.toBeUndefined();
    expect(await vnet).toBeUndefined();
    expect(await vnetDeletes()).toBe(2);
  });

  test("fails within seconds of the VM's failed deletion, naming the VM; the next destroy completes", async () => {
    const lab2 = await vmOnVnet("bd-fail", "running");
    await lab.hook("POST", "/_emulator/faults", { method: "DELETE", table: "vms", status: 507, count: 1 });
    const vnet = settled(lab2.deleteVnet());
    const vmFailed = await settled(lab2.deleteVm());
    const failedAt = Date.now();
    expect(vmFailed).toBeInstanceOf(Error);
    const err = await vnet;
    expect(Date.now() - failedAt).toBeLessThan(2_000);
    expect(err?.message).toMatch(
      /vnet 'bd-fail-net' is still in use \(.*in use by 1 NIC\(s\)\) and cannot go: the deletion of VM 'bd-fail-vm' \(.*507/,
    );
    expect(err?.message).toMatch(/re-run the destroy/);
    const again = settled(lab2.deleteVnet());
    await expect(lab2.deleteVm()).resolves.toBeUndefined();
    expect(await again).toBeUndefined();
  });

  test("fails naming the VM when nothing in the run deletes it, after the grace for its deletion to start", async () => {
    const lab3 = await vmOnVnet("bd-kept", "stopped");
    const started = Date.now();
    const err = await settled(lab3.deleteVnet());
    expect(Date.now() - started).toBeLessThan(START_GRACE_MS + 3_000);
    expect(err?.message).toMatch(/still in use .* by the NIC\(s\) of VM 'bd-kept-vm', which this run is not deleting.*re-run the destroy/);
  }, 20_000);

  test("sends its DELETE again when the VM goes where this run cannot see it (another process) within the grace", async () => {
    const lab4 = await vmOnVnet("bd-elsewhere", "stopped");
    await lab.resetRequests();
    const vnet = settled(lab4.deleteVnet());
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await lab.api("DELETE", `vms/${lab4.vmKey}`);
    expect(await vnet).toBeUndefined();
    expect(await vnetDeletes()).toBe(2);
  }, 20_000);
});
