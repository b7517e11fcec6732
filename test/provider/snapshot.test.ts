import { type Lab, checkedCreate, providers, startLab } from "./harness";

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
    // What the session saw take how long when it was taken: set once, then kept by a refresh and an update.
    expect(typeof s.outs.waitDurations).toBe("string");
    expect((await p.read(s.id, s.outs)).props.waitDurations).toBe(s.outs.waitDurations);
    const news = (await p.check(s.inputs, { ...s.inputs, restoreTrigger: "1" })).inputs;
    expect(await p.diff(s.id, s.outs, news)).toMatchObject({ changes: true, replaces: [] });
    await lab.resetRequests();
    const restored = (await p.update(s.id, s.outs, news)).outs;
    const { machine } = await lab.api("GET", `vms/${vm.id}?fields=machine`);
    expect(restored.machineKey).toBe(String(machine));
    expect(restored.waitDurations).toBe(s.outs.waitDurations);
    const restores = (await lab.requests()).entries.filter((e) => e.table === "vm_actions" && e.method === "POST");
    expect(restores).toHaveLength(1);
    await p.delete(s.id, s.outs);
    expect((await p.read(s.id, s.outs)).id).toBe("");
  });
});

describe("an interrupted snapshot create", () => {
  const snapshotsOf = (vmKey: string) =>
    lab.api("GET", `vms?filter=${encodeURIComponent(`is_snapshot eq true and parent_vm eq ${vmKey}`)}&fields=$key`);

  test("a lost answer whose snapshot was taken: found by its marker and recorded, one snapshot", async () => {
    const vm = await checkedCreate(providers.VirtualMachine(), { name: "snap-drop", powerState: "stopped" });
    await lab.hook("POST", "/_emulator/faults", { method: "POST", table: "vm_actions", dropAfter: true, count: 1 });
    const s = await checkedCreate(providers.VmSnapshot(), { vm: vm.id, name: "dropped", __marker: "snapdrop01" });
    const snaps = await snapshotsOf(vm.id);
    expect(snaps.map((r: { $key: unknown }) => String(r.$key))).toEqual([s.id]);
  });

  test("a 500 that did not take the snapshot is sent again after looking: one snapshot", async () => {
    const vm = await checkedCreate(providers.VirtualMachine(), { name: "snap-fail", powerState: "stopped" });
    await lab.hook("POST", "/_emulator/faults", { method: "POST", table: "vm_actions", status: 500, count: 1 });
    const s = await checkedCreate(providers.VmSnapshot(), { vm: vm.id, name: "failed-once" });
    expect((await snapshotsOf(vm.id)).map((r: { $key: unknown }) => String(r.$key))).toEqual([s.id]);
  });

  test("a snapshot refused for good (507) is a plain error naming the next step, and leaves nothing", async () => {
    const vm = await checkedCreate(providers.VirtualMachine(), { name: "snap-full", powerState: "stopped" });
    await lab.hook("POST", "/_emulator/faults", { method: "POST", table: "vm_actions", status: 507, count: 1 });
    const p = providers.VmSnapshot();
    const err = await p.create((await p.check({}, { vm: vm.id, name: "full" })).inputs).catch((e: unknown) => e);
    await lab.hook("DELETE", "/_emulator/faults");
    expect(err).not.toMatchObject({ name: "PartialCreateError" });
    expect((err as Error).message).toMatch(/creating VmSnapshot 'full'.*507.*Next: .*free space/);
    expect(await snapshotsOf(vm.id)).toEqual([]);
  });
});
