/**
 * Wire types the maker's clients decode (issue 12): keys, references and fields whose JSON type
 * differs from what a naive emulator would answer.
 */
import { startTestEmulator, type Client } from "./helpers";

let c: Client;
beforeAll(async () => {
  c = await startTestEmulator();
});
afterAll(() => c.emu.close());

describe("keys in rows follow the table's key type", () => {
  test("integer-keyed tables answer $key as a JSON number (get, list, fields=$key, rows lists)", async () => {
    const r = await c.post("/api/v4/vnets", { name: "net-int", network: "10.9.0.0/24" });
    const key = Number(r.body.$key);
    expect((await c.get(`/api/v4/vnets/${key}`)).body.$key).toBe(key);
    expect((await c.get(`/api/v4/vnets?filter=name+eq+'net-int'&fields=$key,name`)).body).toEqual([{ $key: key, name: "net-int" }]);
    const vm = await c.createVm({ name: "keyed" });
    const machine = (await c.get(`/api/v4/vms/${vm.vm}?fields=$key,machine`)).body;
    expect(machine).toEqual({ $key: Number(vm.vm), machine: Number(vm.machine) });
    await c.post("/api/v4/machine_drives", { machine: vm.machine, name: "d0" });
    const drives = (await c.get(`/api/v4/machines/${vm.machine}?fields=drives`)).body.drives;
    expect(drives.every((k: unknown) => typeof k === "number")).toBe(true);
  });

  test("string-keyed tables answer $key as a string", async () => {
    const tiers = (await c.get("/api/v4/storage_tiers?fields=$key")).body;
    expect(tiers.every((t: { $key: unknown }) => typeof t.$key === "string")).toBe(true);
  });
});
