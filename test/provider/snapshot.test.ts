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

describe("an interrupted snapshot create", () => {
  test("a lost answer is recorded as partially created with the snapshot's key: one snapshot, and the next update converges", async () => {
    const vm = await checkedCreate(providers.VirtualMachine(), { name: "snap-drop", powerState: "stopped" });
    await lab.hook("POST", "/_emulator/faults", { method: "POST", table: "vm_actions", dropAfter: true, count: 1 });
    const p = providers.VmSnapshot();
    const inputs = (await p.check({}, { vm: vm.id, name: "dropped" })).inputs;
    const err = await p.create(inputs).catch((e: unknown) => e);
    await lab.hook("DELETE", "/_emulator/faults");
    const snaps = await lab.api("GET", `vms?filter=${encodeURIComponent(`is_snapshot eq true and parent_vm eq ${vm.id}`)}&fields=$key`);
    expect(snaps).toHaveLength(1);
    expect(err).toMatchObject({ name: "PartialCreateError", id: String(snaps[0].$key) });
    const outs = (await p.update(String(snaps[0].$key), (err as { properties: Record<string, unknown> }).properties, inputs)).outs;
    expect(outs).toMatchObject({ name: "dropped", vm: vm.id });
  });

  test("a snapshot that never happened is a plain error and leaves nothing", async () => {
    const vm = await checkedCreate(providers.VirtualMachine(), { name: "snap-fail", powerState: "stopped" });
    await lab.hook("POST", "/_emulator/faults", { method: "POST", table: "vm_actions", status: 500, count: 1 });
    const p = providers.VmSnapshot();
    const err = await p.create((await p.check({}, { vm: vm.id, name: "failed" })).inputs).catch((e: unknown) => e);
    await lab.hook("DELETE", "/_emulator/faults");
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toMatchObject({ name: "PartialCreateError" });
    expect(await lab.api("GET", `vms?filter=${encodeURIComponent(`is_snapshot eq true and parent_vm eq ${vm.id}`)}&fields=$key`)).toEqual([]);
  });
});
