/**
 * Per-object permissions (core/permissions.ts, docs/platform-api.md "Emulator notes: permissions"): a user with
 * role `none` reaches only what `permissions` grant to its identity or its groups', over real HTTPS.
 */
import { type Auth, type Client, powerOnAndWait, startTestEmulator } from "./helpers";

let c: Client;
beforeAll(async () => {
  c = await startTestEmulator();
});
afterAll(() => c.emu.close());

let serial = 0;
/** A fresh user with no role and its API key. */
async function student(): Promise<{ key: string; identity: number; auth: Auth }> {
  const name = `student${++serial}`;
  const made = await c.post("/api/v4/users", { name, role: "none" });
  expect(made.status).toBe(201);
  const identity = (await c.get(`/api/v4/users/${made.body.$key}?fields=identity`)).body.identity;
  const bearer = await c.emu.createApiKey({ user: name, name: `${name}-key` });
  return { key: made.body.$key, identity, auth: { bearer } };
}

async function grant(identity: number, table: string, row: unknown, rights: Record<string, boolean>): Promise<string> {
  const r = await c.post("/api/v4/permissions", { identity, table, row, list: false, ...rights });
  expect(r.status).toBe(201);
  return r.body.$key;
}

const vmKeys = async (auth: Auth) => ((await c.get("/api/v4/vms?fields=$key", auth)).body as { $key: number }[]).map((v) => String(v.$key));

describe("a user with no role", () => {
  test("sees no rows and may change nothing until something is granted", async () => {
    const s = await student();
    await c.createVm({ name: "nobodys" });
    expect(await vmKeys(s.auth)).toEqual([]);
    const vm = (await c.get("/api/v4/vms?fields=$key&limit=1")).body[0].$key;
    expect((await c.get(`/api/v4/vms/${vm}`, s.auth)).status).toBe(403);
    expect((await c.post("/api/v4/vm_actions", { vm, action: "poweron" }, s.auth)).status).toBe(403);
    expect((await c.post("/api/v4/vnets", { name: "x" }, s.auth)).status).toBe(403);
  });
});

describe("grant on a table versus on a row", () => {
  test("a grant on row 0 reaches every row of the table; a grant on one row reaches that row only", async () => {
    const a = await c.createVm({ name: "row-a" });
    const b = await c.createVm({ name: "row-b" });
    const one = await student();
    await grant(one.identity, "vms", a.vm, { read: true });
    expect(await vmKeys(one.auth)).toEqual([a.vm]);
    expect((await c.get(`/api/v4/vms/${a.vm}`, one.auth)).status).toBe(200);
    expect((await c.get(`/api/v4/vms/${b.vm}`, one.auth)).status).toBe(403);
    const all = await student();
    await grant(all.identity, "vms", 0, { read: true });
    expect(await vmKeys(all.auth)).toEqual(expect.arrayContaining([a.vm, b.vm]));
    expect((await c.get(`/api/v4/vms/${b.vm}`, all.auth)).status).toBe(200);
  });

  test("read implies list; list alone lists the row but does not read it", async () => {
    const { vm } = await c.createVm({ name: "list-only" });
    const s = await student();
    await grant(s.identity, "vms", vm, { list: true });
    expect(await vmKeys(s.auth)).toEqual([vm]);
    expect((await c.get(`/api/v4/vms/${vm}`, s.auth)).status).toBe(403);
  });

  test("each right allows its operation only: modify changes and runs actions, delete deletes", async () => {
    const { vm } = await c.createVm({ name: "rights" });
    const s = await student();
    await grant(s.identity, "vms", vm, { read: true, modify: true });
    expect((await c.put(`/api/v4/vms/${vm}`, { description: "changed" }, s.auth)).status).toBe(200);
    expect((await c.post("/api/v4/vm_actions", { vm, action: "poweron" }, s.auth)).status).toBe(201);
    expect((await c.del(`/api/v4/vms/${vm}`, s.auth)).status).toBe(403);
    const other = await c.createVm({ name: "rights-other" });
    const before = (await c.get(`/api/v4/vms/${other.vm}`)).text;
    expect((await c.put(`/api/v4/vms/${other.vm}`, { description: "no" }, s.auth)).status).toBe(403);
    expect((await c.post("/api/v4/vm_actions", { vm: other.vm, action: "poweron" }, s.auth)).status).toBe(403);
    expect((await c.get(`/api/v4/vms/${other.vm}`)).text).toBe(before);
  });

  test("a grant on / reaches every table", async () => {
    const s = await student();
    await grant(s.identity, "/", 0, { read: true });
    expect((await c.get("/api/v4/vnets", s.auth)).body.length).toBeGreaterThan(0);
    expect((await c.get("/api/v4/clusters", s.auth)).status).toBe(200);
  });
});

describe("parent fallback", () => {
  test("a VM's hardware, status and snapshots are read with the VM's grant, another VM's are not", async () => {
    const mine = await c.createVm({ name: "parent-mine" });
    const theirs = await c.createVm({ name: "parent-theirs" });
    for (const m of [mine.machine, theirs.machine]) {
      expect((await c.post("/api/v4/machine_drives", { machine: m, media: "disk", disksize: 1024 ** 3 })).status).toBe(201);
    }
    const s = await student();
    await grant(s.identity, "vms", mine.vm, { read: true, modify: true });
    const drives = (await c.get("/api/v4/machine_drives?fields=machine", s.auth)).body as { machine: number }[];
    expect(drives.map((d) => String(d.machine))).toEqual([mine.machine]);
    expect((await c.get(`/api/v4/machine_status/${mine.machine}`, s.auth)).status).toBe(200);
    expect((await c.get(`/api/v4/machine_status/${theirs.machine}`, s.auth)).status).toBe(403);
  });

  test("changing a child needs create on the parent row: modify on the VM leaves its hardware read-only", async () => {
    const { vm, machine } = await c.createVm({ name: "child-rights" });
    const drive = (await c.post("/api/v4/machine_drives", { machine, media: "disk", disksize: 1024 ** 3 })).body.$key;
    const s = await student();
    const g = await grant(s.identity, "vms", vm, { read: true, modify: true });
    expect((await c.post("/api/v4/machine_drives", { machine, media: "disk", disksize: 1024 ** 3 }, s.auth)).status).toBe(403);
    expect((await c.put(`/api/v4/machine_drives/${drive}`, { description: "x" }, s.auth)).status).toBe(403);
    expect((await c.del(`/api/v4/machine_drives/${drive}`, s.auth)).status).toBe(403);
    expect((await c.put(`/api/v4/permissions/${g}`, { create: true })).status).toBe(200);
    expect((await c.put(`/api/v4/machine_drives/${drive}`, { description: "x" }, s.auth)).status).toBe(200);
    expect((await c.post("/api/v4/machine_drives", { machine, media: "disk", disksize: 1024 ** 3 }, s.auth)).status).toBe(201);
  });

  test("a snapshot VM and its hardware fall back to the VM: read with the VM's grant, another VM's are not", async () => {
    const own = await c.createVm({ name: "snap-own" });
    const other = await c.createVm({ name: "snap-other" });
    const net = (await c.post("/api/v4/vnets", { name: "snap-net" })).body.$key;
    const snapshotOf = async (vm: { vm: string; machine: string }) => {
      await c.post("/api/v4/machine_nics", { machine: vm.machine, vnet: net });
      const made = await c.post("/api/v4/machine_snapshots", { machine: vm.machine, name: "start" });
      const { snap_machine } = (await c.get(`/api/v4/machine_snapshots/${made.body.$key}?fields=snap_machine`)).body;
      return {
        machine: String(snap_machine),
        vm: String((await c.get(`/api/v4/vms?filter=machine%20eq%20${snap_machine}&fields=$key`)).body[0].$key),
      };
    };
    const [mine, theirs] = [await snapshotOf(own), await snapshotOf(other)];
    const s = await student();
    await grant(s.identity, "vms", own.vm, { read: true, modify: true });
    expect((await c.get(`/api/v4/vms/${mine.vm}`, s.auth)).status).toBe(200);
    expect((await c.get(`/api/v4/machine_nics?filter=machine%20eq%20${mine.machine}&fields=$key`, s.auth)).body).toHaveLength(1);
    expect((await c.get(`/api/v4/vms/${theirs.vm}`, s.auth)).status).toBe(403);
    expect((await c.get(`/api/v4/machine_nics?filter=machine%20eq%20${theirs.machine}&fields=$key`, s.auth)).body).toEqual([]);
    // Reading is all: deleting its snapshot needs create on the VM, as a child's change does.
    expect((await c.del(`/api/v4/vms/${mine.vm}`, s.auth)).status).toBe(403);
  });

  test("a grant on the child's own row decides before the parent", async () => {
    const { machine } = await c.createVm({ name: "child-own" });
    const drive = (await c.post("/api/v4/machine_drives", { machine, media: "disk", disksize: 1024 ** 3 })).body.$key;
    const s = await student();
    await grant(s.identity, "machine_drives", drive, { read: true, modify: true });
    expect((await c.put(`/api/v4/machine_drives/${drive}`, { description: "own" }, s.auth)).status).toBe(200);
    expect((await c.get(`/api/v4/machine_status/${machine}`, s.auth)).status).toBe(403);
  });

  test("a NIC may only name a vnet the user may read", async () => {
    const { vm, machine } = await c.createVm({ name: "nic-vnet" });
    const mine = (await c.post("/api/v4/vnets", { name: "perm-mine" })).body.$key;
    const theirs = (await c.post("/api/v4/vnets", { name: "perm-theirs" })).body.$key;
    const s = await student();
    await grant(s.identity, "vms", vm, { read: true, create: true });
    await grant(s.identity, "vnets", mine, { read: true });
    expect((await c.post("/api/v4/machine_nics", { machine, vnet: theirs }, s.auth)).status).toBe(403);
    const nic = await c.post("/api/v4/machine_nics", { machine, vnet: mine }, s.auth);
    expect(nic.status).toBe(201);
    expect((await c.put(`/api/v4/machine_nics/${nic.body.$key}`, { vnet: theirs }, s.auth)).status).toBe(403);
  });
});

describe("actions that add to a VM need what adding the row needs", () => {
  test("a snapshot, a hot-plugged drive or NIC need create on the VM; a hot-plugged NIC a vnet the user may read", async () => {
    const { vm, machine } = await c.createVm({ name: "action-children", allow_hotplug: true });
    const mine = (await c.post("/api/v4/vnets", { name: "act-mine" })).body.$key;
    const theirs = (await c.post("/api/v4/vnets", { name: "act-theirs" })).body.$key;
    await powerOnAndWait(c, vm, machine);
    const s = await student();
    const g = await grant(s.identity, "vms", vm, { read: true, modify: true });
    await grant(s.identity, "vnets", mine, { read: true });
    const rows = async () => ({
      nics: (await c.get(`/api/v4/machine_nics?filter=machine%20eq%20${machine}&fields=$key`)).body.length,
      drives: (await c.get(`/api/v4/machine_drives?filter=machine%20eq%20${machine}&fields=$key`)).body.length,
      snapshots: (await c.get(`/api/v4/machine_snapshots?filter=machine%20eq%20${machine}&fields=$key`)).body.length,
    });
    const before = await rows();
    const act = (action: string, params: Record<string, unknown>) => c.post("/api/v4/vm_actions", { vm, action, params }, s.auth);
    expect((await act("snapshot", { name: "mine" })).status).toBe(403);
    expect((await act("hotplugdrive", { media: "disk", disksize: 1024 ** 3 })).status).toBe(403);
    expect((await act("hotplugnic", { vnet: mine })).status).toBe(403);
    expect(await rows()).toEqual(before);
    expect((await c.put(`/api/v4/permissions/${g}`, { create: true })).status).toBe(200);
    expect((await act("hotplugnic", { vnet: theirs })).status).toBe(403);
    expect(await rows()).toEqual(before);
    expect((await act("hotplugnic", { vnet: mine })).status).toBe(201);
  });

  test("a clone needs create on the vms table, not only modify on the VM", async () => {
    const { vm } = await c.createVm({ name: "clone-source" });
    const s = await student();
    await grant(s.identity, "vms", vm, { read: true, modify: true, create: true });
    expect((await c.post("/api/v4/vm_actions", { vm, action: "clone", params: { name: "student-clone" } }, s.auth)).status).toBe(403);
    expect((await c.get("/api/v4/vms?filter=name%20eq%20'student-clone'&fields=$key")).body).toEqual([]);
    await grant(s.identity, "vms", 0, { list: false, create: true });
    expect((await c.post("/api/v4/vm_actions", { vm, action: "clone", params: { name: "student-clone" } }, s.auth)).status).toBe(201);
  });
});

describe("group grants", () => {
  test("a member acts with its groups' grants, nested groups included, and loses them when removed", async () => {
    const { vm } = await c.createVm({ name: "group-vm" });
    const s = await student();
    const outer = (await c.post("/api/v4/groups", { name: "perm-outer" })).body.$key;
    const inner = (await c.post("/api/v4/groups", { name: "perm-inner" })).body.$key;
    const outerIdentity = (await c.get(`/api/v4/groups/${outer}?fields=identity`)).body.identity;
    await c.post("/api/v4/members", { parent_group: outer, member: `/v4/groups/${inner}` });
    const m = await c.post("/api/v4/members", { parent_group: inner, member: `/v4/users/${s.key}` });
    await grant(outerIdentity, "vms", vm, { read: true });
    expect(await vmKeys(s.auth)).toEqual([vm]);
    expect((await c.del(`/api/v4/members/${m.body.$key}`)).status).toBe(200);
    expect(await vmKeys(s.auth)).toEqual([]);
  });
});

describe("revocation", () => {
  test("deleting or narrowing a grant takes effect at the next request", async () => {
    const { vm } = await c.createVm({ name: "revoke" });
    const s = await student();
    const g = await grant(s.identity, "vms", vm, { read: true, modify: true });
    expect((await c.put(`/api/v4/vms/${vm}`, { description: "a" }, s.auth)).status).toBe(200);
    expect((await c.put(`/api/v4/permissions/${g}`, { modify: false })).status).toBe(200);
    expect((await c.put(`/api/v4/vms/${vm}`, { description: "b" }, s.auth)).status).toBe(403);
    expect((await c.del(`/api/v4/permissions/${g}`)).status).toBe(200);
    expect((await c.get(`/api/v4/vms/${vm}`, s.auth)).status).toBe(403);
  });

  test("deleting a user deletes its grants", async () => {
    const s = await student();
    await grant(s.identity, "vms", 0, { read: true });
    expect((await c.del(`/api/v4/users/${s.key}`)).status).toBe(200);
    expect((await c.get(`/api/v4/permissions?filter=identity eq ${s.identity}`)).body).toEqual([]);
  });
});

describe("roles stay", () => {
  test("a role's rights are unchanged and grants add to them", async () => {
    const { vm } = await c.createVm({ name: "roles" });
    const viewer = { bearer: await c.emu.createApiKey({ user: "viewer", name: "perm-viewer" }) };
    expect((await c.get("/api/v4/vms", viewer)).body.length).toBeGreaterThan(0);
    expect((await c.put(`/api/v4/vms/${vm}`, { description: "no" }, viewer)).status).toBe(403);
    const identity = (await c.get("/api/v4/users?filter=name eq 'viewer'&fields=identity")).body[0].identity;
    await grant(identity, "vms", vm, { read: true, modify: true });
    expect((await c.put(`/api/v4/vms/${vm}`, { description: "yes" }, viewer)).status).toBe(200);
  });
});

describe("grants are valid", () => {
  test("an unknown table, a row that does not exist, an unknown identity or a duplicate are refused", async () => {
    const s = await student();
    const post = (body: Record<string, unknown>) => c.post("/api/v4/permissions", { identity: s.identity, table: "vms", ...body });
    expect((await post({ table: "nope" })).body.err).toMatch(/field: .table. - .'nope' is not a table/);
    expect((await post({ row: 99999 })).body.err).toMatch(/vms\/99999 does not exist/);
    expect((await post({ identity: 999998 })).body.err).toMatch(/field: .identity./);
    expect((await post({ read: true })).status).toBe(201);
    expect((await post({ read: true })).status).toBe(409);
    expect((await c.post("/api/v4/permissions", { identity: s.identity, table: "vms" }, s.auth)).status).toBe(403);
  });
});
