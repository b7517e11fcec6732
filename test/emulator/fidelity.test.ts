/**
 * Issue 12: what the maker's clients send and read exists here — create bodies with the fields
 * their Terraform provider sends, unknown names refused instead of read as null, nodes and
 * volumes with ids, cluster status, the dashboard, display() labels, the vnet runtime and the
 * VM actions hibernate, move and migrate.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { powerOnAndWait, startTestEmulator, type Client } from "./helpers";

let c: Client;
const volumeDir = mkdtempSync(join(tmpdir(), "emu-volume-"));
beforeAll(async () => {
  c = await startTestEmulator({ volumes: { data: volumeDir } });
});
afterAll(async () => {
  await c.emu.close();
  rmSync(volumeDir, { recursive: true, force: true });
});

describe("create bodies with the fields the maker's clients send are accepted", () => {
  test("POST /v4/vms with disable_powercycle, preferred_node, ha_group, os_description", async () => {
    const r = await c.post("/api/v4/vms", {
      name: "tf-vm",
      disable_powercycle: true,
      preferred_node: 2,
      ha_group: "",
      os_description: "Debian 12",
      cluster_failover: null,
    });
    expect(r.status).toBe(201);
    expect((await c.get(`/api/v4/vms/${r.body.$key}?fields=disable_powercycle,preferred_node,os_description`)).body).toEqual({
      disable_powercycle: true,
      preferred_node: 2,
      os_description: "Debian 12",
    });
  });

  test("POST /v4/vnets with dhcp_dynamic and dhcp_sequential", async () => {
    const r = await c.post("/api/v4/vnets", {
      name: "tf-net",
      network: "10.3.0.0/24",
      dhcp_enabled: true,
      dhcp_start: "10.3.0.10",
      dhcp_stop: "10.3.0.20",
      dhcp_dynamic: false,
      dhcp_sequential: true,
    });
    expect(r.status).toBe(201);
    expect((await c.get(`/api/v4/vnets/${r.body.$key}?fields=dhcp_dynamic,dhcp_sequential`)).body).toEqual({
      dhcp_dynamic: false,
      dhcp_sequential: true,
    });
  });

  test("NIC driver/model/vendor/port and device description/orderid/asset are stored", async () => {
    const vm = await c.createVm({ name: "hw-fields" });
    const nic = await c.post("/api/v4/machine_nics", {
      machine: vm.machine,
      vnet: 1,
      driver: "virtio-net",
      model: "m",
      vendor: "v",
      port: 3,
    });
    expect((await c.get(`/api/v4/machine_nics/${nic.body.$key}?fields=driver,model,vendor,port,device`)).body).toEqual({
      driver: "virtio-net",
      model: "m",
      vendor: "v",
      port: 3,
      device: "",
    });
    const group = (await c.get("/api/v4/resource_groups?filter=name+eq+'usb-yubikey'&fields=$key")).body[0].$key;
    const dev = await c.post("/api/v4/machine_devices", {
      machine: vm.machine,
      resource_group: group,
      description: "key",
      orderid: 2,
      asset: "A-1",
    });
    expect((await c.get(`/api/v4/machine_devices/${dev.body.$key}?fields=description,orderid,asset,machine_type`)).body).toEqual({
      description: "key",
      orderid: 2,
      asset: "A-1",
      machine_type: "pc-q35-10.0",
    });
  });
});

describe("an unknown field name is refused with 400 naming it", () => {
  test.each([
    ["fields", "/api/v4/vms?fields=name,colour", "fields: unknown field 'colour' of vms"],
    ["a joined field", "/api/v4/vms?fields=machine%23status%23colour", "fields: unknown field 'machine#status#colour' of machine_status"],
    ["filter", "/api/v4/vms?filter=colour+eq+'red'", "filter: unknown field 'colour' of vms"],
    ["sort", "/api/v4/vms?sort=-colour", "sort: unknown field 'colour' of vms"],
    ["a get", "/api/v4/vms/1?fields=colour", "fields: unknown field 'colour' of vms"],
  ])("in %s", async (_where, path, message) => {
    const r = await c.get(path);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ err: message });
  });

  test("$key, $display, joins, sub-selections and JSON fields stay valid", async () => {
    const r = await c.get("/api/v4/clusters?fields=$key,$display,status[total_nodes,status],nodes[name],resources");
    expect(r.status).toBe(200);
    expect(r.body[0].status).toEqual({ total_nodes: 2, status: "online" });
  });
});

describe("the field lists the maker's Python and TypeScript clients read are all known", () => {
  const vmFields =
    "$key,name,description,enabled,cpu_cores,ram,os_family,guest_agent,uefi,secure_boot,machine_type,created,modified,is_snapshot,machine," +
    "machine#status#status as status,machine#status#running as running,machine#status#node as node_key,machine#status#node#name as node_name," +
    "machine#cluster as cluster_key,machine#cluster#name as cluster_name,machine#ha_group as ha_group,cloudinit_datasource,console,on_power_loss,cluster," +
    "cluster_failover,preferred_node,ha_group,cpu_type,boot_order,need_restart,allow_hotplug,uuid";
  const driveFields =
    "$key,name,orderid,interface,media,description,enabled,serial,preferred_tier,readonly,ms_2023_kek_applied,disksize,used_bytes," +
    "media_source,machine,status#status as status,status#display(status) as status_display,media_source#name as media_file,media_source#allocated_bytes as allocated_bytes";
  const nicFields =
    "$key,name,orderid,interface,description,enabled,macaddress,ipaddress,vnet,machine,status#status as status,status#display(status) as status_display," +
    "status#speed as speed,vnet#$key as vnet_key,vnet#name as vnet_name,vnet#machine#status#status as vnet_status,stats#rx_bytes as rx_bytes,stats#tx_bytes as tx_bytes";
  const vnetFields =
    "$key,name,description,enabled,type,layer2_type,layer2_id,network,ipaddress,gateway,mtu,dhcp_enabled,dhcp_start,dhcp_stop,dns,domain," +
    "need_fw_apply,need_dns_apply,need_proxy_apply,need_restart,on_power_loss,interface_vnet,proxy_enabled,machine,cluster,cluster_failover,preferred_node,ha_group," +
    "machine#status#powerstate as powerstate,machine#status#status as status";
  test.each([
    ["vms", vmFields],
    ["machine_drives", driveFields],
    ["machine_nics", nicFields],
    ["vnets", vnetFields],
  ])("%s", async (table, fields) => {
    const r = await c.get(`/api/v4/${table}?fields=${encodeURIComponent(fields)}`);
    expect(r.status).toBe(200);
  });
});

describe("nodes, volumes and clusters carry what the clients look them up by", () => {
  test("nodes have an id equal to their key, and node details", async () => {
    const nodes = (await c.get("/api/v4/nodes?fields=$key,id,name,physical,cores,ram,vm_ram,yb_version")).body;
    expect(nodes.map((n: { $key: number; id: number }) => [n.$key, n.id])).toEqual([
      [1, 1],
      [2, 2],
    ]);
    expect(nodes[0]).toMatchObject({ physical: true, cores: 32, ram: 131072, vm_ram: 0 });
  });

  test("volumes have an id equal to their key", async () => {
    const volumes = (await c.get("/api/v4/volumes?fields=$key,id,name")).body;
    expect(volumes).toHaveLength(1);
    expect(volumes[0].id).toBe(String(volumes[0].$key));
  });

  test("clusters have enabled/storage/compute and a status row read through status#...", async () => {
    const cluster = (
      await c.get(
        "/api/v4/clusters/1?fields=enabled,storage,compute,status%23status+as+status,status%23total_nodes+as+nodes,status%23total_ram+as+ram",
      )
    ).body;
    expect(cluster).toEqual({ enabled: true, storage: true, compute: true, status: "online", nodes: 2, ram: 2 * 131072 });
    expect((await c.get("/api/v4/cluster_status?filter=cluster+eq+1&fields=cluster,online_nodes,running_machines")).body).toEqual([
      { cluster: 1, online_nodes: 2, running_machines: expect.any(Number) },
    ]);
  });

  test("a cluster shutdown shows in its status", async () => {
    const other = await c.post("/api/v4/clusters", { name: "spare" });
    expect((await c.post("/api/v4/cluster_actions", { cluster: other.body.$key, action: "shutdown" })).status).toBe(201);
    expect((await c.get(`/api/v4/clusters/${other.body.$key}?fields=status%23status+as+s`)).body).toEqual({ s: "shutting_down" });
  });
});

describe("the dashboard table", () => {
  test("answers system-wide counts as one object", async () => {
    const dash = (await c.get("/api/v4/dashboard")).body;
    const vms = (await c.get("/api/v4/vms?filter=is_snapshot+eq+false&fields=$key")).body.length;
    expect(dash).toMatchObject({
      machines_count: vms,
      nodes_count: 2,
      nodes_online: 2,
      clusters_count: expect.any(Number),
      vnets_online: 1,
    });
  });
});

describe("display() answers the label of the table schema's list", () => {
  test("status and media labels", async () => {
    const vm = await c.createVm({ name: "labels" });
    await c.post("/api/v4/machine_drives", { machine: vm.machine, name: "d", interface: "virtio-scsi" });
    expect((await c.get(`/api/v4/machine_status/${vm.machine}?fields=display(status)+as+s`)).body).toEqual({ s: "Stopped" });
    expect((await c.get(`/api/v4/machine_drives?filter=machine+eq+${vm.machine}&fields=display(interface)+as+i`)).body).toEqual([
      { i: "Virtio-SCSI" },
    ]);
    expect((await c.get("/api/v4/machine_drives/$table")).body.fields.media.list.cdrom).toBe("CD-ROM");
    expect((await c.get("/api/v4/machine_nics/$table")).body.fields.interface.list.e1000).toBe("Intel e1000");
  });
});

describe("vnets run on a machine of their own", () => {
  const net = async (name: string) => (await c.post("/api/v4/vnets", { name, network: "10.44.0.0/24" })).body.$key as string;
  const state = async (key: string) =>
    (await c.get(`/api/v4/vnets/${key}?fields=powerstate,machine%23status%23status+as+status,need_fw_apply`)).body;

  test("a new vnet is stopped; poweron → starting → running; poweroff → stopping → stopped", async () => {
    const key = await net("rt-1");
    expect(await state(key)).toEqual({ powerstate: false, status: "stopped", need_fw_apply: false });
    expect((await c.post("/api/v4/vnet_actions", { vnet: key, action: "poweron" })).status).toBe(201);
    expect(["starting", "running"]).toContain((await state(key)).status); // 20 ms at this time scale
    await c.waitFor(`/api/v4/vnets/${key}?fields=machine%23status%23running+as+r`, (b) => b.r === true);
    expect((await c.post("/api/v4/vnet_actions", { vnet: key, action: "poweron" })).status).toBe(409);
    expect((await c.post("/api/v4/vnet_actions", { vnet: key, action: "poweroff" })).status).toBe(201);
    await c.waitFor(`/api/v4/vnets/${key}?fields=powerstate`, (b) => b.powerstate === false);
  });

  test("PUT enabled: true starts a stopped vnet; killpower stops it at once", async () => {
    const key = await net("rt-2");
    expect((await c.put(`/api/v4/vnets/${key}`, { enabled: true })).status).toBe(200);
    expect((await state(key)).powerstate).toBe(true);
    expect((await c.post("/api/v4/vnet_actions", { vnet: key, action: "killpower" })).status).toBe(201);
    expect((await state(key)).status).toBe("stopped");
    expect((await c.put(`/api/v4/vnets/${key}`, { description: "no power change" })).status).toBe(200);
    expect((await state(key)).powerstate).toBe(false);
  });

  test("a rules change on a running vnet waits for apply (refresh); params.apply is accepted", async () => {
    const key = await net("rt-3");
    await c.post("/api/v4/vnet_actions", { vnet: key, action: "poweron" });
    await c.waitFor(`/api/v4/vnets/${key}?fields=machine%23status%23running+as+r`, (b) => b.r === true);
    await c.put(`/api/v4/vnets/${key}`, { gateway: "10.44.0.1" });
    expect((await state(key)).need_fw_apply).toBe(true);
    expect((await c.post("/api/v4/vnet_actions", { vnet: key, action: "refresh", params: { apply: true } })).status).toBe(201);
    expect((await state(key)).need_fw_apply).toBe(false);
    expect((await c.post("/api/v4/vnet_actions", { vnet: key, action: "reset", params: { apply: true } })).status).toBe(201);
    expect((await c.post("/api/v4/vnet_actions", { vnet: key, action: "explode" })).status).toBe(400);
  });

  test("a running vnet is not deleted (409, power it off first); stopped, it is", async () => {
    const key = await net("rt-5");
    await c.post("/api/v4/vnet_actions", { vnet: key, action: "poweron", params: { apply: true } });
    const refused = await c.del(`/api/v4/vnets/${key}`);
    expect(refused.status).toBe(409);
    expect(JSON.stringify(refused.body ?? refused)).toMatch(/running network; power it off first/);
    await c.post("/api/v4/vnet_actions", { vnet: key, action: "killpower" });
    expect((await c.del(`/api/v4/vnets/${key}`)).status).toBe(200);
  });

  test("a NIC may sit on a stopped vnet; deleting a vnet removes its machine", async () => {
    const key = await net("rt-4");
    const machine = (await c.get(`/api/v4/vnets/${key}?fields=machine`)).body.machine;
    const vm = await c.createVm({ name: "on-stopped-net" });
    const nic = await c.post("/api/v4/machine_nics", { machine: vm.machine, vnet: key });
    expect(nic.status).toBe(201);
    await c.del(`/api/v4/machine_nics/${nic.body.$key}`);
    expect((await c.del(`/api/v4/vnets/${key}`)).status).toBe(200);
    expect((await c.get(`/api/v4/machines/${machine}`)).status).toBe(404);
  });
});

describe("vm_actions hibernate, move and migrate", () => {
  const status = async (machine: string) =>
    (await c.get(`/api/v4/machine_status/${machine}?fields=status,powerstate,node,migrated_node`)).body;

  test("hibernate: running → hibernating → hibernated (resources freed); poweron resumes", async () => {
    const vm = await c.createVm({ name: "sleeper" });
    expect((await c.post("/api/v4/vm_actions", { vm: vm.vm, action: "hibernate" })).status).toBe(409);
    await powerOnAndWait(c, vm.vm, vm.machine);
    expect((await c.post("/api/v4/vm_actions", { vm: vm.vm, action: "hibernate" })).status).toBe(201);
    expect(["hibernating", "hibernated"]).toContain((await status(vm.machine)).status);
    await c.waitFor(`/api/v4/machine_status/${vm.machine}`, (s) => s.status === "hibernated");
    expect(await status(vm.machine)).toMatchObject({ powerstate: false, node: null });
    await powerOnAndWait(c, vm.vm, vm.machine);
  });

  test("migrate names the target by node id; the VM runs there after migrating", async () => {
    const vm = await c.createVm({ name: "mover" });
    await powerOnAndWait(c, vm.vm, vm.machine);
    const from = (await status(vm.machine)).node;
    const to = from === 1 ? 2 : 1;
    expect((await c.post("/api/v4/vm_actions", { vm: vm.vm, action: "migrate", params: { node: to, method: "live" } })).status).toBe(201);
    await c.waitFor(`/api/v4/machine_status/${vm.machine}`, (s) => s.status === "running" && s.node === to);
    expect((await status(vm.machine)).migrated_node).toBe(from);
    expect((await c.post("/api/v4/vm_actions", { vm: vm.vm, action: "move", params: { node: from } })).status).toBe(201);
    await c.waitFor(`/api/v4/machine_status/${vm.machine}`, (s) => s.status === "running" && s.node === from);
  });

  test("move of a stopped VM sets where it starts next; another cluster only while stopped", async () => {
    const vm = await c.createVm({ name: "parked" });
    expect((await c.post("/api/v4/vm_actions", { vm: vm.vm, action: "move", params: { node: 2 } })).status).toBe(201);
    expect((await c.get(`/api/v4/vms/${vm.vm}?fields=preferred_node`)).body).toEqual({ preferred_node: 2 });
    await powerOnAndWait(c, vm.vm, vm.machine);
    expect((await status(vm.machine)).node).toBe(2);
    expect((await c.post("/api/v4/vm_actions", { vm: vm.vm, action: "move", params: { node: 99 } })).status).toBe(404);
  });
});
