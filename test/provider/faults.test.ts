import { type Lab, checkedCreate, providers, startLab } from "./harness";

let lab: Lab;
beforeAll(async () => {
  lab = await startLab();
});
afterEach(() => lab.hook("DELETE", "/_emulator/faults"));
afterAll(() => lab.close());

const vmsNamed = async (name: string) => lab.api("GET", `vms?filter=${encodeURIComponent(`name eq '${name}'`)}&fields=$key`);

describe("interrupted and retried creates", () => {
  test("a failure after the VM row exists deletes it again: no orphan", async () => {
    await lab.hook("POST", "/_emulator/faults", { method: "POST", table: "note_actions", status: 500, count: 1 });
    await expect(checkedCreate(providers.VirtualMachine(), { name: "orphan-1", note: "hello", powerState: "stopped" })).rejects.toThrow();
    expect(await vmsNamed("orphan-1")).toEqual([]);
  });

  test("a failed power-on is rolled back the same way", async () => {
    await lab.hook("POST", "/_emulator/faults", { method: "POST", table: "vm_actions", status: 507, count: 1 });
    await expect(checkedCreate(providers.VirtualMachine(), { name: "orphan-2", powerState: "running" })).rejects.toThrow();
    expect(await vmsNamed("orphan-2")).toEqual([]);
  });

  test("a dropped POST that landed is found by name: one VM, no duplicate", async () => {
    await lab.hook("POST", "/_emulator/faults", { method: "POST", table: "vms", dropAfter: true, count: 1 });
    const vm = await checkedCreate(providers.VirtualMachine(), { name: "dropped-1", powerState: "stopped" });
    const rows = await vmsNamed("dropped-1");
    expect(rows).toHaveLength(1);
    expect(String(rows[0].$key)).toBe(vm.id);
  });

  test("a dropped vnet POST is recovered the same way", async () => {
    await lab.hook("POST", "/_emulator/faults", { method: "POST", table: "vnets", dropAfter: true, count: 1 });
    const v = await checkedCreate(providers.Vnet(), { name: "dropped-net", network: "10.40.0.0/24" });
    const rows = await lab.api("GET", `vnets?filter=${encodeURIComponent("name eq 'dropped-net'")}&fields=$key`);
    expect(rows.map((r: { $key: unknown }) => String(r.$key))).toEqual([v.id]);
  });
});
