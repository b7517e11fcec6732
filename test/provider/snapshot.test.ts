import { Lab, checkedCreate, providers, startLab } from "./harness";

let lab: Lab;
beforeAll(async () => {
  lab = await startLab();
});
afterAll(() => lab.close());

describe("VmSnapshot", () => {
  test("create waits for the snapshot, restore on a new trigger, delete removes the snapshot", async () => {
    const vm = await checkedCreate(providers.VirtualMachine(), { name: "snap-src", powerState: "stopped" });
    const p = providers.VmSnapshot();
    const s = await checkedCreate(p, { vm: vm.id, name: "before-upgrade" });
    const row = await lab.api("GET", `vms/${s.id}?fields=is_snapshot,name`);
    expect(row).toMatchObject({ is_snapshot: true, name: "before-upgrade" });
    expect((await p.read(s.id, s.outs)).inputs).toEqual(s.inputs);
    const news = (await p.check(s.inputs, { ...s.inputs, restoreTrigger: "1" })).inputs;
    expect(await p.diff(s.id, s.outs, news)).toMatchObject({ changes: true, replaces: [] });
    await lab.resetRequests();
    const restored = (await p.update(s.id, s.outs, news)).outs;
    const { machine } = await lab.api("GET", `vms/${vm.id}?fields=machine`);
    expect(restored.machineKey).toBe(String(machine));
    const restores = (await lab.requests()).entries.filter((e) => e.table === "vm_actions" && e.method === "POST");
    expect(restores).toHaveLength(1);
    await p.delete(s.id, s.outs);
    expect((await p.read(s.id, s.outs)).id).toBe("");
  });
});
