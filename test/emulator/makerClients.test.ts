/**
 * Issue 23: what the maker's clients read answers with a value, over HTTPS — the dashboard's `<name>_count`
 * names, `vnet_actions` poweron with `params.apply`, the labels of a resource group's type, groups with their
 * members and logs, the version's name and hash, node lists with machine stats, device status and the user fields
 * of the user and API-key flows.
 */
import { powerOnAndWait, startTestEmulator, type Client } from "./helpers";

let c: Client;
beforeAll(async () => {
  c = await startTestEmulator();
});
afterAll(() => c.emu.close());

describe("the dashboard answers the counts under the names the clients read", () => {
  test("machines_count counts the VMs that are not snapshots, with _online, _warn and _error beside it", async () => {
    await c.createVm({ name: "dash-1" });
    const vms = (await c.get("/api/v4/vms?filter=is_snapshot+eq+false&fields=$key")).body.length;
    const dash = (await c.get("/api/v4/dashboard")).body;
    expect(dash).toMatchObject({ machines_count: vms, machines_online: 0, machines_warn: 0, machines_error: 0, nodes_count: 2 });
    expect(dash).toMatchObject({ vnets_count: expect.any(Number), users_count: 3, groups_count: 1, storage_tiers_count: 5 });
  });
});

describe("vnet poweron takes params.apply", () => {
  test("poweron with apply applies the pending rules and starts the vnet", async () => {
    const key = (await c.post("/api/v4/vnets", { name: "apply-net", network: "10.45.0.0/24" })).body.$key;
    const r = await c.post("/api/v4/vnet_actions", { vnet: key, action: "poweron", params: { apply: true } });
    expect(r.status).toBe(201);
    await c.waitFor(`/api/v4/vnets/${key}?fields=running`, (b) => b.running === true);
    expect((await c.get(`/api/v4/vnets?filter=running+eq+true&fields=name`)).body).toContainEqual({ name: "apply-net" });
  });

  test("a param poweron does not know is still refused, naming it", async () => {
    const key = (await c.post("/api/v4/vnets", { name: "apply-net-2" })).body.$key;
    const r = await c.post("/api/v4/vnet_actions", { vnet: key, action: "poweron", params: { aply: true } });
    expect(r.status).toBe(422);
    expect(JSON.stringify(r.body)).toContain("aply");
  });
});

describe("display() of a resource group's type answers its label", () => {
  test("node_host_gpu_devices reads Host GPU", async () => {
    const rows = (await c.get("/api/v4/resource_groups?filter=name+eq+'nvidia-a100'&fields=display(type)+as+t,count(resources)+as+n")).body;
    expect(rows).toEqual([{ t: "Host GPU", n: 0 }]);
  });
});

describe("groups, members and group logs", () => {
  test("a user added to a group is listed as its member and the log says so", async () => {
    const group = (await c.post("/api/v4/groups", { name: "devs", description: "developers" })).body.$key;
    const user = (await c.post("/api/v4/users", { name: "dev1", email: "dev1@example.test" })).body.$key;
    expect((await c.post("/api/v4/members", { parent_group: Number(group), member: `/v4/users/${user}` })).status).toBe(201);
    const again = await c.post("/api/v4/members", { parent_group: Number(group), member: `/v4/users/${user}` });
    expect(again.status).toBe(409);
    expect((await c.get(`/api/v4/groups/${group}?fields=name,count(members)+as+n,system_group`)).body).toEqual({
      name: "devs",
      n: 1,
      system_group: false,
    });
    const logs = (await c.get(`/api/v4/group_logs?filter=group+eq+${group}&fields=text`)).body.map((l: { text: string }) => l.text);
    expect(logs).toEqual(["group 'devs' created", `/v4/users/${user} added`]);
  });

  test("a member that does not exist is refused with 404 naming it", async () => {
    const group = (await c.post("/api/v4/groups", { name: "ops" })).body.$key;
    const r = await c.post("/api/v4/members", { parent_group: Number(group), member: "/v4/users/9999" });
    expect(r.status).toBe(404);
    expect(JSON.stringify(r.body)).toContain("/v4/users/9999");
  });
});

describe("/version.json shows the name, the version and the build hash", () => {
  test("the three fields the Terraform provider's version data source reads", async () => {
    const body = (await c.get("/version.json", "none")).body;
    expect(body).toEqual({
      name: "vplatform-emulator",
      version: expect.stringMatching(/^\d+\.\d+\.\d+$/),
      hash: expect.stringMatching(/^[0-9a-f]{40}$/),
    });
  });
});

describe("node lists and device lists read through machine stats and device status", () => {
  test("a running VM's machine has non-zero stats; a stopped one zeros", async () => {
    const vm = await c.createVm({ name: "stats-vm" });
    const stats = () => c.get(`/api/v4/machines/${vm.machine}?fields=stats%23total_cpu+as+cpu,stats%23ram_used+as+ram`);
    expect((await stats()).body).toEqual({ cpu: 0, ram: 0 });
    await powerOnAndWait(c, vm.vm, vm.machine);
    const running = (await stats()).body;
    expect(running.cpu).toBeGreaterThan(0);
    expect(running.ram).toBeGreaterThan(0);
    const nodes = (await c.get("/api/v4/nodes?fields=name,machine%23stats%23total_cpu+as+cpu")).body;
    expect(nodes).toHaveLength(2);
  });

  test("a TPM device reads its status through status#status", async () => {
    const vm = await c.createVm({ name: "tpm-vm" });
    const device = (await c.post("/api/v4/machine_devices", { machine: Number(vm.machine), type: "tpm", settings_args: {} })).body.$key;
    const read = await c.get(`/api/v4/machine_devices?filter=machine+eq+${vm.machine}&fields=$key,status%23status+as+device_status`);
    expect(read.body).toEqual([{ $key: Number(device), device_status: "offline" }]);
    expect((await c.del(`/api/v4/machine_devices/${device}`)).status).toBe(200);
  });
});

describe("the user fields of the user and API-key flows", () => {
  test("a user made with email and type lists under a filter on type", async () => {
    const r = await c.post("/api/v4/users", { name: "api-bot", email: "bot@example.test", type: "api", change_password: false });
    expect(r.status).toBe(201);
    const fields = "name,email,auth_source,two_factor_authentication,last_login";
    const rows = (await c.get(`/api/v4/users?filter=type+eq+'api'+and+type+ne+'site_sync'&fields=${fields}`)).body;
    expect(rows).toEqual([
      { name: "api-bot", email: "bot@example.test", auth_source: null, two_factor_authentication: false, last_login: 0 },
    ]);
  });

  test("a user type outside the list is refused, naming the options", async () => {
    const r = await c.post("/api/v4/users", { name: "odd", type: "robot" });
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body)).toContain("type");
  });
});
