import { startTestEmulator, type Client } from "./helpers";

let c: Client;
let machine: string;
beforeAll(async () => {
  c = await startTestEmulator();
  machine = (await c.createVm({ name: "hw" })).machine;
});
afterAll(() => c.emu.close());

const GiB = 1024 ** 3;

describe("drives", () => {
  test("disksize can grow; shrinking is 422", async () => {
    const d = await c.post("/api/v4/machine_drives", {
      machine,
      media: "disk",
      interface: "virtio-scsi",
      disksize: 10 * GiB,
      preferred_tier: "3",
    });
    expect(d.status).toBe(201);
    expect((await c.put(`/api/v4/machine_drives/${d.body.$key}`, { disksize: 20 * GiB })).status).toBe(200);
    const shrink = await c.put(`/api/v4/machine_drives/${d.body.$key}`, { disksize: 5 * GiB });
    expect(shrink.status).toBe(422);
    expect(shrink.body.err).toMatch(/cannot be shrunk/);
  });

  test("preferred_tier must be 1 to 5; an invalid interface or media is 422", async () => {
    expect((await c.post("/api/v4/machine_drives", { machine, preferred_tier: 6 })).status).toBe(422);
    expect((await c.post("/api/v4/machine_drives", { machine, interface: "floppy" })).status).toBe(422);
    expect((await c.post("/api/v4/machine_drives", { machine, media: "tape" })).status).toBe(422);
  });

  test("media_source must exist (404) and be given for cdrom/import/clone (422)", async () => {
    expect((await c.post("/api/v4/machine_drives", { machine, media: "cdrom", media_source: 999 })).status).toBe(404);
    expect((await c.post("/api/v4/machine_drives", { machine, media: "import" })).status).toBe(422);
    const iso = await c.post("/api/v4/machine_drives", { machine, media: "cdrom", interface: "ahci", media_source: 1 });
    expect(iso.status).toBe(201);
    const imported = await c.post("/api/v4/machine_drives", { machine, media: "import", media_source: 4 });
    expect((await c.get(`/api/v4/machine_drives/${imported.body.$key}?fields=disksize`)).body.disksize).toBe(2 * GiB);
  });

  test("a drive larger than the tier's free space is 507", async () => {
    const r = await c.post("/api/v4/machine_drives", { machine, disksize: 2 * 1024 ** 4, preferred_tier: "5" });
    expect(r.status).toBe(507);
    expect(r.body.error).toBe("insufficient storage space in the requested tier");
  });

  test("a missing machine is 404, a missing machine field 400", async () => {
    expect((await c.post("/api/v4/machine_drives", { machine: 999 })).status).toBe(404);
    expect((await c.post("/api/v4/machine_drives", { media: "disk" })).status).toBe(400);
  });

  test("storage tiers report capacity and use", async () => {
    const tiers = (await c.get("/api/v4/storage_tiers?fields=$key,capacity,used,free")).body;
    expect(tiers.map((t: { $key: string }) => t.$key)).toEqual(["1", "2", "3", "4", "5"]);
    const tier3 = tiers.find((t: { $key: string }) => t.$key === "3");
    expect(tier3.used).toBe(20 * GiB);
    expect(tier3.free).toBe(tier3.capacity - tier3.used);
  });
});

describe("NICs", () => {
  test("enabled defaults to true; a missing vnet is 404", async () => {
    const n = await c.post("/api/v4/machine_nics", { machine, vnet: "1", interface: "e1000" });
    expect(n.status).toBe(201);
    const row = (await c.get(`/api/v4/machine_nics/${n.body.$key}`)).body;
    expect(row).toMatchObject({ enabled: true, vnet: 1, interface: "e1000" });
    expect(row.macaddress).toMatch(/^([0-9a-f]{2}:){5}[0-9a-f]{2}$/);
    expect((await c.post("/api/v4/machine_nics", { machine, vnet: 777 })).status).toBe(404);
    expect((await c.post("/api/v4/machine_nics", { machine })).status).toBe(400);
  });

  test("PUT changes vnet and enabled", async () => {
    const vnet = await c.post("/api/v4/vnets", { name: "nic-net" });
    const n = await c.post("/api/v4/machine_nics", { machine, vnet: 1 });
    expect((await c.put(`/api/v4/machine_nics/${n.body.$key}`, { vnet: vnet.body.$key, enabled: false })).status).toBe(200);
    expect((await c.get(`/api/v4/machine_nics/${n.body.$key}?fields=vnet,enabled`)).body).toEqual({
      vnet: Number(vnet.body.$key),
      enabled: false,
    });
  });
});

describe("devices", () => {
  test("a GPU from resource_groups attaches and answers response.uuid", async () => {
    const groups = (await c.get("/api/v4/resource_groups?filter=name+eq+'nvidia-a100'&fields=$key,uuid")).body;
    const r = await c.post("/api/v4/machine_devices", { machine, resource_group: groups[0].uuid, settings_args: {} });
    expect(r.status).toBe(201);
    expect(r.body.response.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect((await c.get("/api/v4/node_nvidia_vgpu_devices")).body.length).toBeGreaterThan(0);
  });

  test("an unknown resource group is 404", async () => {
    expect((await c.post("/api/v4/machine_devices", { machine, resource_group: "00000000-0000-0000-0000-000000000000" })).status).toBe(404);
  });
});

describe("vnets", () => {
  test("a DHCP range inside the network is accepted", async () => {
    const r = await c.post("/api/v4/vnets", {
      name: "lan",
      network: "10.20.0.0/24",
      gateway: "10.20.0.1",
      dhcp_enabled: true,
      dhcp_start: "10.20.0.100",
      dhcp_stop: "10.20.0.200",
      advanced_options: { dnsmasq: ["dhcp-option=42,10.0.0.1"] },
    });
    expect(r.status).toBe(201);
  });

  test("a DHCP start outside the network is the validation error on dhcp_start", async () => {
    const r = await c.post("/api/v4/vnets", { name: "lan2", network: "10.30.0.0/24", dhcp_start: "10.31.0.5", dhcp_stop: "10.30.0.9" });
    expect(r.status).toBe(400);
    expect(r.body.err).toMatch(/^Validation error on field: 'dhcp_start' - /);
  });

  test("a duplicate name is 409; a vnet in use cannot be deleted", async () => {
    expect((await c.post("/api/v4/vnets", { name: "lan" })).status).toBe(409);
    expect((await c.del("/api/v4/vnets/1")).status).toBe(409);
  });
});

describe("tags", () => {
  test("tags and tag members (vms/<key>)", async () => {
    const vm = await c.createVm({ name: "tagged" });
    const tag = await c.post("/api/v4/tags", { name: "prod" });
    expect((await c.post("/api/v4/tag_members", { tag: tag.body.$key, member: `vms/${vm.vm}` })).status).toBe(201);
    expect((await c.post("/api/v4/tag_members", { tag: tag.body.$key, member: "vms/9999" })).status).toBe(404);
    expect((await c.get(`/api/v4/tags/${tag.body.$key}?fields=count(members)+as+n`)).body.n).toBe(1);
  });
});
