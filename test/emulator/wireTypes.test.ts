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

describe("fsync of machine_drives is text, as the platform answers it", () => {
  test('answers "" by default, "0"/"1" as set; JSON booleans are taken as "0"/"1"', async () => {
    const vm = await c.createVm({ name: "fsync" });
    const plain = await c.post("/api/v4/machine_drives", { machine: vm.machine, name: "a" });
    expect((await c.get(`/api/v4/machine_drives/${plain.body.$key}?fields=fsync`)).body).toEqual({ fsync: "" });
    const on = await c.post("/api/v4/machine_drives", { machine: vm.machine, name: "b", fsync: true });
    expect((await c.get(`/api/v4/machine_drives/${on.body.$key}?fields=fsync`)).body).toEqual({ fsync: "1" });
    expect((await c.put(`/api/v4/machine_drives/${on.body.$key}`, { fsync: "0" })).status).toBe(200);
    expect((await c.get(`/api/v4/machine_drives/${on.body.$key}?fields=fsync`)).body).toEqual({ fsync: "0" });
    expect((await c.put(`/api/v4/machine_drives/${on.body.$key}`, { fsync: "maybe" })).status).toBe(422);
  });
});

describe("references follow the field types of the tables", () => {
  test("machine, vnet, cluster and node references are JSON numbers in rows", async () => {
    const vm = await c.createVm({ name: "refs" });
    const net = await c.post("/api/v4/vnets", { name: "refs-net", network: "10.8.0.0/24" });
    const nic = await c.post("/api/v4/machine_nics", { machine: vm.machine, vnet: net.body.$key });
    expect((await c.get(`/api/v4/machine_nics/${nic.body.$key}?fields=machine,vnet`)).body).toEqual({
      machine: Number(vm.machine),
      vnet: Number(net.body.$key),
    });
    expect((await c.get(`/api/v4/vms/${vm.vm}?fields=cluster`)).body).toEqual({ cluster: 1 });
  });
});
