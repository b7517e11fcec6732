import { powerOnAndWait, startTestEmulator, type Client } from "./helpers";

let c: Client;
beforeAll(async () => {
  c = await startTestEmulator();
});
afterAll(() => c.emu.close());

describe("VM creation", () => {
  test("creates the machine and its stopped status; answers response.machine", async () => {
    const { vm, machine } = await c.createVm({ name: "create-1" });
    const row = (await c.get(`/api/v4/vms/${vm}?fields=most`)).body;
    expect(row).toMatchObject({
      cpu_cores: 1,
      ram: 1024,
      enabled: true,
      machine: Number(machine),
      machine_type: "pc-q35-10.0",
      is_snapshot: false,
    });
    const status = (await c.get(`/api/v4/machine_status/${machine}?fields=most`)).body;
    expect(status).toMatchObject({ running: false, powerstate: false, status: "stopped", state: "offline", node: null, status_info: "" });
  });

  test("a taken name is 409", async () => {
    await c.createVm({ name: "dup" });
    const r = await c.post("/api/v4/vms", { name: "dup" });
    expect(r.status).toBe(409);
    expect(r.body.error).toMatch(/name exists/);
  });

  test.each([[511], [1048577]])("RAM %d MB is outside the bounds: 400 naming ram", async (ram) => {
    const r = await c.post("/api/v4/vms", { name: `ram-${ram}`, ram });
    expect(r.status).toBe(400);
    expect(r.body.err).toMatch(/'ram'.*512 and 1048576/);
  });

  test.each(["pc", "q35", "pc-i440fx-8.2", "pc-q35-10.0"])("machine type %s is accepted", async (machine_type) => {
    expect((await c.post("/api/v4/vms", { name: `mt-${machine_type}`, machine_type })).status).toBe(201);
  });

  test("an unknown machine type is 400 listing the valid options", async () => {
    const r = await c.post("/api/v4/vms", { name: "mt-bad", machine_type: "virt" });
    expect(r.status).toBe(400);
    expect(r.body.err).toContain("pc, q35, pc-i440fx-*, pc-q35-*");
  });

  test("booleans arrive as JSON booleans or strings", async () => {
    const { vm } = await c.createVm({ name: "bools", uefi: "true", guest_agent: true, secure_boot: "false" });
    expect((await c.get(`/api/v4/vms/${vm}?fields=uefi,guest_agent,secure_boot`)).body).toEqual({
      uefi: true,
      guest_agent: true,
      secure_boot: false,
    });
  });

  test("enums are checked", async () => {
    expect((await c.post("/api/v4/vms", { name: "bad-console", console: "rdp" })).status).toBe(400);
  });

  test("cloudinit_files become cloudinit_files rows owned by the VM", async () => {
    const { vm } = await c.createVm({
      name: "ci",
      cloudinit_datasource: "nocloud",
      cloudinit_files: [{ name: "/user-data", contents: "#cloud-config\n" }],
    });
    const files = (await c.get(`/api/v4/cloudinit_files?filter=owner+eq+'vms/${vm}'&fields=$key,name`)).body;
    expect(files).toHaveLength(1);
    const raw = await c.get(`/api/v4/cloudinit_files/${files[0].$key}?download=1`);
    expect(raw.text).toBe("#cloud-config\n");
  });
});

describe("VM update", () => {
  test("a stopped VM takes CPU and RAM changes without need_restart", async () => {
    const { vm } = await c.createVm({ name: "upd-stopped" });
    expect((await c.put(`/api/v4/vms/${vm}`, { cpu_cores: 4, ram: 4096 })).status).toBe(200);
    expect((await c.get(`/api/v4/vms/${vm}?fields=cpu_cores,ram,need_restart`)).body).toEqual({
      cpu_cores: 4,
      ram: 4096,
      need_restart: false,
    });
  });

  test("a CPU change while running without hotplug is 409", async () => {
    const { vm, machine } = await c.createVm({ name: "upd-nohp", allow_hotplug: false });
    await powerOnAndWait(c, vm, machine);
    const r = await c.put(`/api/v4/vms/${vm}`, { cpu_cores: 2 });
    expect(r.status).toBe(409);
    expect(r.body.error).toBe("cannot modify CPU cores while running without hotplug support");
  });

  test("RAM change while running sets need_restart; a power cycle clears it", async () => {
    const { vm, machine } = await c.createVm({ name: "upd-restart" });
    await powerOnAndWait(c, vm, machine);
    await c.put(`/api/v4/vms/${vm}`, { ram: 2048 });
    expect((await c.get(`/api/v4/vms/${vm}?fields=need_restart`)).body.need_restart).toBe(true);
    await c.post("/api/v4/vm_actions", { vm, action: "kill" });
    await c.post("/api/v4/vm_actions", { vm, action: "poweron" });
    expect((await c.get(`/api/v4/vms/${vm}?fields=need_restart`)).body.need_restart).toBe(false);
  });

  test("console and video change freely", async () => {
    const { vm } = await c.createVm({ name: "upd-console" });
    expect((await c.put(`/api/v4/vms/${vm}`, { console: "spice", video: "qxl" })).status).toBe(200);
  });

  test("read-only fields are refused", async () => {
    const { vm } = await c.createVm({ name: "upd-ro" });
    const r = await c.put(`/api/v4/vms/${vm}`, { machine: 5 });
    expect(r.status).toBe(400);
    expect(r.body.err).toMatch(/'machine'.*read-only/);
  });
});

describe("VM deletion", () => {
  test("removes drives, NICs, devices, cloud-init files, machine and status", async () => {
    const { vm, machine } = await c.createVm({ name: "del", cloudinit_files: [{ name: "/meta-data", contents: "x" }] });
    const drive = await c.post("/api/v4/machine_drives", { machine, media: "disk", disksize: 1024 ** 3 });
    const nic = await c.post("/api/v4/machine_nics", { machine, vnet: 1 });
    const dev = await c.post("/api/v4/machine_devices", {
      machine,
      resource_group: "9a8b7c6d-5e4f-4321-8fed-cba987654321",
      settings_args: {},
    });
    expect([drive.status, nic.status, dev.status]).toEqual([201, 201, 201]);
    expect((await c.del(`/api/v4/vms/${vm}`)).status).toBe(200);
    expect((await c.get(`/api/v4/vms/${vm}`)).status).toBe(404);
    expect((await c.get(`/api/v4/machine_status/${machine}`)).status).toBe(404);
    expect((await c.get(`/api/v4/machine_drives/${drive.body.$key}`)).status).toBe(404);
    expect((await c.get(`/api/v4/machine_nics/${nic.body.$key}`)).status).toBe(404);
    expect((await c.get(`/api/v4/machine_devices/${dev.body.$key}`)).status).toBe(404);
    expect((await c.get(`/api/v4/cloudinit_files?filter=owner+eq+'vms/${vm}'`)).body).toEqual([]);
  });

  test("a running VM cannot be deleted", async () => {
    const { vm, machine } = await c.createVm({ name: "del-running" });
    await powerOnAndWait(c, vm, machine);
    expect((await c.del(`/api/v4/vms/${vm}`)).status).toBe(409);
  });
});

describe("notes", () => {
  test("note_actions update sets the VM note", async () => {
    const { vm } = await c.createVm({ name: "noted" });
    const r = await c.post("/api/v4/note_actions", { owner: `vms/${vm}`, action: "update", params: { text: "hello" } });
    expect(r.status).toBe(201);
    expect((await c.get(`/api/v4/vms/${vm}?fields=note`)).body.note).toBe("hello");
    expect((await c.post("/api/v4/note_actions", { owner: "vms/9999", action: "update", params: { text: "x" } })).status).toBe(404);
    expect((await c.post("/api/v4/note_actions", { owner: `vms/${vm}`, action: "update", params: {} })).status).toBe(400);
  });
});
