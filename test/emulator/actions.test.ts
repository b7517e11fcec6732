import { powerOnAndWait, startTestEmulator, type Client } from "./helpers";

let c: Client;
beforeAll(async () => {
  // Transitional states are asserted right after the answer: 100 ms (not 20) leaves room on a busy machine.
  c = await startTestEmulator({ timeScale: 0.05 });
});
afterAll(() => c.emu.close());

const act = (vm: string, action: string, params?: Record<string, unknown>) =>
  c.post("/api/v4/vm_actions", { vm, action, ...(params ? { params } : {}) });
const status = async (machine: string) => (await c.get(`/api/v4/machine_status/${machine}?fields=most`)).body;

describe("power", () => {
  test("poweron answers 201, passes through starting and sets the node", async () => {
    const { vm, machine } = await c.createVm({ name: "p1" });
    const r = await act(vm, "poweron", {});
    expect(r.status).toBe(201);
    expect((await status(machine)).status).toBe("starting");
    const running = await c.waitFor(`/api/v4/machine_status/${machine}`, (s) => s.status === "running");
    expect(running).toMatchObject({ running: true, powerstate: true, state: "online" });
    expect(running.node).not.toBeNull();
  });

  test("poweron while running is 409; poweroff while stopped is 409", async () => {
    const { vm, machine } = await c.createVm({ name: "p2" });
    const off = await act(vm, "poweroff");
    expect(off.status).toBe(409);
    expect(off.body.error).toBe("cannot power off, not running");
    await powerOnAndWait(c, vm, machine);
    const on = await act(vm, "poweron");
    expect(on.status).toBe(409);
    expect(on.body.error).toBe("cannot power on, already running");
  });

  test("poweroff is graceful (stopping, then stopped with node null); kill is immediate", async () => {
    const { vm, machine } = await c.createVm({ name: "p3" });
    await powerOnAndWait(c, vm, machine);
    await act(vm, "poweroff");
    expect((await status(machine)).status).toBe("stopping");
    const stopped = await c.waitFor(`/api/v4/machine_status/${machine}`, (s) => s.status === "stopped");
    expect(stopped.node).toBeNull();
    await powerOnAndWait(c, vm, machine);
    expect((await act(vm, "kill")).status).toBe(201);
    expect(await status(machine)).toMatchObject({ status: "stopped", running: false, node: null });
  });

  test("reset graceful and hard, and the guestreset spelling, restart a running VM", async () => {
    const { vm, machine } = await c.createVm({ name: "p4" });
    await powerOnAndWait(c, vm, machine);
    for (const [action, params] of [
      ["reset", { graceful: true }],
      ["reset", undefined],
      ["guestreset", undefined],
      ["guestreboot", undefined],
    ] as const) {
      expect((await act(vm, action, params)).status).toBe(201);
      await c.waitFor(`/api/v4/machine_status/${machine}`, (s) => s.status === "running");
    }
  });

  test("starting more VMs than the cluster holds is 507", async () => {
    const big = [];
    for (let i = 0; i < 3; i++) big.push(await c.createVm({ name: `big-${i}`, ram: 100000 }));
    expect((await act(big[0].vm, "poweron")).status).toBe(201);
    expect((await act(big[1].vm, "poweron")).status).toBe(201);
    const third = await act(big[2].vm, "poweron");
    expect(third.status).toBe(507);
    expect(third.body.error).toBe("insufficient cluster resources to start VM");
    const resources = (await c.get("/api/v4/clusters/1?fields=resources")).body.resources;
    expect(resources.ram_free).toBeLessThan(100000);
    for (const b of big.slice(0, 2)) await act(b.vm, "kill");
  });

  test("an unknown action is a validation error listing the actions", async () => {
    const { vm } = await c.createVm({ name: "p5" });
    const r = await act(vm, "explode");
    expect(r.status).toBe(400);
    expect(r.body.err).toMatch(/'action'.*poweron/);
  });

  test("an action on a missing VM is 404", async () => {
    expect((await act("4242", "poweron")).status).toBe(404);
  });

  test("migrate moves a running VM to the given node (node or preferred_node)", async () => {
    const { vm, machine } = await c.createVm({ name: "p6" });
    await powerOnAndWait(c, vm, machine);
    const from = (await status(machine)).node;
    const to = from === 1 ? 2 : 1;
    expect((await act(vm, "migrate", { node: to })).status).toBe(201);
    const done = await c.waitFor(`/api/v4/machine_status/${machine}?fields=most`, (s) => s.status === "running" && s.node === to);
    expect(done.migrated_node).toBe(from);
  });
});

describe("clone", () => {
  test("copies the VM with its hardware; the source shows cloning for a while", async () => {
    const { vm, machine } = await c.createVm({ name: "src", cpu_cores: 2 });
    await c.post("/api/v4/machine_drives", { machine, media: "disk", disksize: 2 * 1024 ** 3 });
    const nic = await c.post("/api/v4/machine_nics", { machine, vnet: 1 });
    const r = await act(vm, "clone", { name: "src-copy", description: "d", quiesce: "true", preserve_macs: "true" });
    expect(r.status).toBe(201);
    const { vmkey, machinekey, machinestatuskey, clusterkey } = r.body.response;
    expect([typeof vmkey, machinekey, machinestatuskey, clusterkey]).toEqual(["string", machinekey, machinekey, "1"]);
    expect((await status(machine)).status).toBe("cloning");
    await c.waitFor(`/api/v4/machine_status/${machine}`, (s) => s.status === "stopped");
    expect((await c.get(`/api/v4/vms/${vmkey}?fields=name,cpu_cores,created_from`)).body).toEqual({
      name: "src-copy",
      cpu_cores: 2,
      created_from: "clone",
    });
    expect((await c.get(`/api/v4/machine_drives?filter=machine+eq+${machinekey}`)).body).toHaveLength(1);
    const copiedNic = (await c.get(`/api/v4/machine_nics?filter=machine+eq+${machinekey}&fields=macaddress`)).body[0];
    expect(copiedNic.macaddress).toBe((await c.get(`/api/v4/machine_nics/${nic.body.$key}?fields=macaddress`)).body.macaddress);
  });

  test("a taken clone name is 409; a missing name is 400", async () => {
    const { vm } = await c.createVm({ name: "src2" });
    const r = await act(vm, "clone", { name: "src2" });
    expect(r.status).toBe(409);
    expect(r.body.error).toBe("VM with that name exists");
    expect((await act(vm, "clone", {})).status).toBe(400);
  });

  test("a clone that does not fit the tier is 507", async () => {
    const { vm, machine } = await c.createVm({ name: "src3" });
    expect(
      (await c.post("/api/v4/machine_drives", { machine, media: "disk", disksize: Math.round(0.6 * 1024 ** 4), preferred_tier: 5 })).status,
    ).toBe(201);
    const r = await act(vm, "clone", { name: "src3-copy" });
    expect(r.status).toBe(507);
    expect(r.body.error).toBe("insufficient storage space in the requested tier");
  });
});

describe("snapshot and restore", () => {
  test("snapshot creates an is_snapshot VM and a machine_snapshots row; the VM shows snapshotting", async () => {
    const { vm, machine } = await c.createVm({ name: "snap-src", ram: 2048 });
    await c.post("/api/v4/machine_drives", { machine, media: "disk", disksize: 1024 ** 3 });
    const r = await act(vm, "snapshot", { name: "before-upgrade", description: "x" });
    expect(r.status).toBe(201);
    expect((await status(machine)).status).toBe("snapshotting");
    await c.waitFor(`/api/v4/machine_status/${machine}`, (s) => s.status === "stopped");
    const snaps = (await c.get(`/api/v4/vms?filter=is_snapshot+eq+true+and+parent_vm+eq+${vm}&fields=$key,name`)).body;
    expect(snaps).toEqual([{ $key: Number(r.body.response.vmkey), name: "before-upgrade" }]);
    const records = (await c.get(`/api/v4/machine_snapshots?filter=machine+eq+${machine}&fields=$key,name,snap_machine`)).body;
    expect(records).toHaveLength(1);

    // Change the VM, then restore: settings and drives come back.
    await c.put(`/api/v4/vms/${vm}`, { ram: 8192 });
    const restore = await act(vm, "restore", { snapshot_id: records[0].$key });
    expect(restore.status).toBe(201);
    const newMachine = restore.body.response.machine;
    expect((await status(newMachine)).status).toBe("restoring");
    await c.waitFor(`/api/v4/machine_status/${newMachine}`, (s) => s.status === "stopped");
    expect((await c.get(`/api/v4/vms/${vm}?fields=ram`)).body.ram).toBe(2048);
    expect((await c.get(`/api/v4/machine_drives?filter=machine+eq+${newMachine}`)).body).toHaveLength(1);
  });

  test("a restore puts back the VM's settings as the snapshot kept them; its name, description and identity stay", async () => {
    const { vm, machine } = await c.createVm({ name: "rs-conf", ram: 2048, cpu_cores: 2, boot_order: "cd", note: "v1" });
    const snap = await act(vm, "snapshot", { name: "start", description: "the snapshot's" });
    await c.waitFor(`/api/v4/machine_status/${machine}`, (s) => s.status === "stopped");
    const fields = "name,description,uuid,ram,cpu_cores,boot_order,note,need_restart";
    const before = (await c.get(`/api/v4/vms/${vm}?fields=${fields}`)).body;
    await c.put(`/api/v4/vms/${vm}`, {
      ram: 4096,
      cpu_cores: 4,
      boot_order: "dc",
      note: "v2",
      name: "rs-conf-renamed",
      description: "later",
    });
    expect((await act(vm, "restore", { snapshot_id: snap.body.$key })).status).toBe(201);
    await c.waitFor(`/api/v4/machine_status/${machine}`, (s) => s.status === "stopped");
    expect((await c.get(`/api/v4/vms/${vm}?fields=${fields}`)).body).toEqual({
      ...before,
      name: "rs-conf-renamed",
      description: "later",
    });
  });

  test("restore of a missing snapshot is 404, of another VM's snapshot 422, of a running VM 409", async () => {
    const a = await c.createVm({ name: "rs-a" });
    const b = await c.createVm({ name: "rs-b" });
    const snap = await act(a.vm, "snapshot", { name: "rs-a-snap" });
    await c.waitFor(`/api/v4/machine_status/${a.machine}`, (s) => s.status === "stopped");
    expect((await act(a.vm, "restore", { snapshot_id: "9999" })).status).toBe(404);
    expect((await act(b.vm, "restore", { snapshot_id: snap.body.$key })).status).toBe(422);
    await powerOnAndWait(c, a.vm, a.machine);
    expect((await act(a.vm, "restore", { snapshot: snap.body.response.vmkey })).status).toBe(409);
  });

  test("a restore puts back the drives' content (the /_emulator content marker) as the snapshot saw it", async () => {
    const { vm, machine } = await c.createVm({ name: "rs-content" });
    const drive = (await c.post("/api/v4/machine_drives", { machine, media: "disk", disksize: 1024 ** 3 })).body.$key;
    const content = `/_emulator/drives/${drive}/content`;
    expect((await c.put(content, { content: "at-snapshot" })).status).toBe(200);
    const snap = await act(vm, "snapshot", { name: "rs-content-start" });
    await c.waitFor(`/api/v4/machine_status/${machine}`, (s) => s.status === "stopped");
    await c.put(content, { content: "student-work" });
    expect((await c.get(content)).body).toEqual({ content: "student-work" });
    await act(vm, "restore", { snapshot_id: snap.body.$key });
    await c.waitFor(`/api/v4/machine_status/${machine}`, (s) => s.status === "stopped");
    expect((await c.get(content)).body).toEqual({ content: "at-snapshot" });
    // The marker is the emulator's alone: the API neither shows it nor takes it.
    expect((await c.get(`/api/v4/machine_drives/${drive}?fields=all`)).body).not.toHaveProperty("content");
    expect((await c.put(`/api/v4/machine_drives/${drive}`, { content: "x" })).status).toBe(400);
  });

  test("a restore by a key that is both a snapshot VM of this VM and a snapshot record of another restores this VM's", async () => {
    const fresh = await startTestEmulator({ timeScale: 0.01 });
    try {
      const post = (vm: string, action: string, params: Record<string, unknown>) =>
        fresh.post("/api/v4/vm_actions", { vm, action, params });
      const idle = (machine: string) => fresh.waitFor(`/api/v4/machine_status/${machine}`, (s) => s.status === "stopped");
      const a = await fresh.createVm({ name: "overlap-a" });
      const snapVm = (await post(a.vm, "snapshot", { name: "a-start" })).body.response.vmkey;
      await idle(a.machine);
      // Snapshot records of another VM until one has the key of a's snapshot VM (tables count their keys apart).
      const b = await fresh.createVm({ name: "overlap-b" });
      for (let record = ""; record !== snapVm; ) {
        record = (await post(b.vm, "snapshot", { name: "b" })).body.$key;
        expect(Number(record)).toBeLessThanOrEqual(Number(snapVm));
        await idle(b.machine);
      }
      expect((await post(a.vm, "restore", { snapshot_id: snapVm })).status).toBe(201);
    } finally {
      await fresh.emu.close();
    }
  });

  test("deleting the snapshot record deletes the snapshot VM", async () => {
    const { vm } = await c.createVm({ name: "snap-del" });
    const snap = await act(vm, "snapshot", { name: "sd" });
    expect((await c.del(`/api/v4/machine_snapshots/${snap.body.$key}`)).status).toBe(200);
    expect((await c.get(`/api/v4/vms/${snap.body.response.vmkey}`)).status).toBe(404);
  });
});

describe("hotplug", () => {
  test("unplug then delete a drive of a running VM; a second unplug while in progress is 422", async () => {
    const { vm, machine } = await c.createVm({ name: "hp" });
    const drive = await c.post("/api/v4/machine_drives", { machine, media: "disk", disksize: 1024 ** 3 });
    await powerOnAndWait(c, vm, machine);
    const driveStatus = () => c.get(`/api/v4/machine_drives/${drive.body.$key}?fields=status%23status+as+status`);
    expect((await driveStatus()).body.status).toBe("online");
    expect((await c.del(`/api/v4/machine_drives/${drive.body.$key}`)).status).toBe(409);
    expect((await act(vm, "hotplugdrive", { device: drive.body.$key, unplug: true })).status).toBe(201);
    const again = await act(vm, "hotplugdrive", { device: drive.body.$key, unplug: true });
    expect(again.status).toBe(422);
    expect(again.body.error).toMatch(/^already hotplug/);
    await c.waitFor(`/api/v4/machine_drives/${drive.body.$key}?fields=status%23status+as+status`, (d) => d.status === "offline");
    expect((await c.del(`/api/v4/machine_drives/${drive.body.$key}`)).status).toBe(200);
  });

  test("hotplug by new-drive fields adds an online drive", async () => {
    const { vm, machine } = await c.createVm({ name: "hp2" });
    await powerOnAndWait(c, vm, machine);
    const r = await act(vm, "hotplugdrive", {
      name: "extra",
      disksize: 1024 ** 3,
      interface: "virtio-scsi",
      media: "disk",
      preferred_tier: "2",
    });
    expect(r.status).toBe(201);
    await c.waitFor(`/api/v4/machine_drives/${r.body.$key}?fields=status%23status+as+status`, (d) => d.status === "online");
  });

  test("without allow_hotplug a running VM refuses new drives and hotplug actions", async () => {
    const { vm, machine } = await c.createVm({ name: "hp3", allow_hotplug: false });
    await powerOnAndWait(c, vm, machine);
    expect((await c.post("/api/v4/machine_drives", { machine, disksize: 1024 ** 3 })).status).toBe(409);
    expect((await c.post("/api/v4/machine_nics", { machine, vnet: 1 })).status).toBe(409);
    expect((await act(vm, "hotplugdrive", { name: "x", disksize: 1024 })).status).toBe(422);
  });

  test("hotplug needs a running VM", async () => {
    const { vm } = await c.createVm({ name: "hp4" });
    expect((await act(vm, "hotplugdrive", { name: "x", disksize: 1024 })).status).toBe(409);
  });
});

describe("other action tables", () => {
  test("billing generate, catalog refresh, clone_iso update, cluster shutdown, file links", async () => {
    expect((await c.post("/api/v4/billing_actions", { action: "generate" })).status).toBe(201);
    expect((await c.get("/api/v4/billing")).body).toHaveLength(1);
    expect((await c.post("/api/v4/catalog_repository_actions", { repository: 1 })).status).toBe(201);
    expect((await c.get("/api/v4/catalog_repositories/1?fields=status")).body.status).toBe("refreshing");
    expect((await c.post("/api/v4/clone_iso_actions", {})).status).toBe(201);
    expect((await c.post("/api/v4/clone_iso_actions", {})).status).toBe(409);
    expect((await c.post("/api/v4/cluster_actions", { action: "shutdown" })).status).toBe(400);
    const link = await c.post("/api/v4/file_actions", { file: 1, action: "add_link" });
    expect(link.body.response.link).toMatch(/^\/pub\//);
  });
});
