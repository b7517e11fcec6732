import { startTestEmulator, type Client } from "./helpers";

let c: Client;
beforeAll(async () => {
  c = await startTestEmulator();
  for (const [name, ram] of [
    ["alpha", 2048],
    ["bravo", 1024],
    ["charlie one", 4096],
  ] as const)
    await c.createVm({ name, ram });
});
afterAll(() => c.emu.close());

describe("creation responses", () => {
  test("carry location, dbpath, integer $row and string $key", async () => {
    const r = await c.post("/api/v4/vnets", { name: "net-a", network: "10.1.0.0/24" });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      location: `/v4/vnets/${r.body.$key}`,
      dbpath: `vnets/${r.body.$key}`,
      $row: Number(r.body.$key),
      $key: r.body.$key,
    });
    expect(typeof r.body.$key).toBe("string");
  });
});

describe("query options", () => {
  test("filter with spaces as + or %20 selects rows", async () => {
    const plus = await c.get("/api/v4/vms?filter=ram+gt+1024&fields=name&sort=+name");
    const pct = await c.get("/api/v4/vms?filter=ram%20gt%201024&fields=name&sort=%2Bname");
    expect(plus.body).toEqual([{ name: "alpha" }, { name: "charlie one" }]);
    expect(pct.body).toEqual(plus.body);
  });

  test("sort descending, limit and offset page through rows; limit 0 is unlimited", async () => {
    const page = await c.get("/api/v4/vms?fields=name&sort=-name&limit=1&offset=1");
    expect(page.body).toEqual([{ name: "bravo" }]);
    expect((await c.get("/api/v4/vms?limit=0")).body).toHaveLength(3);
  });

  test("# joins follow references and aliases rename", async () => {
    const r = await c.get(
      "/api/v4/vms?filter=name+eq+'alpha'&fields=name,machine%23status%23status+as+status,machine%23status%23running+as+running",
    );
    expect(r.body).toEqual([{ name: "alpha", status: "stopped", running: false }]);
  });

  test("filters on joined fields and null", async () => {
    expect((await c.get("/api/v4/vms?filter=machine%23status%23status+eq+'stopped'")).body).toHaveLength(3);
    expect((await c.get("/api/v4/machine_drives?filter=machine+eq+null")).body).toEqual([]);
  });

  test("without fields the default field set is answered; most and all add more", async () => {
    const key = (await c.get("/api/v4/vms?filter=name+eq+'alpha'&fields=$key")).body[0].$key;
    const plain = (await c.get(`/api/v4/vms/${key}`)).body;
    const most = (await c.get(`/api/v4/vms/${key}?fields=most`)).body;
    const all = (await c.get(`/api/v4/vms/${key}?fields=all`)).body;
    expect(plain).toHaveProperty("cpu_cores");
    expect(plain).not.toHaveProperty("video");
    expect(most).toHaveProperty("video");
    expect(most).not.toHaveProperty("cloudinit_files");
    expect(all).toHaveProperty("cloudinit_files");
    expect(all).not.toHaveProperty("console_pass");
  });

  test("field functions apply", async () => {
    const r = await c.get("/api/v4/vms?filter=name+eq+'alpha'&fields=upper(name)+as+n");
    expect(r.body).toEqual([{ n: "ALPHA" }]);
  });

  test("a malformed filter is a 400 naming the problem", async () => {
    const r = await c.get("/api/v4/vms?filter=name+eq");
    expect(r.status).toBe(400);
    expect(r.body.err).toMatch(/^filter:/);
  });

  test("a non-numeric limit is a 400", async () => {
    expect((await c.get("/api/v4/vms?limit=abc")).status).toBe(400);
  });

  test("X-JSON-Non-Compact answers indented JSON", async () => {
    const r = await c.request("GET", "/api/v4/system", { headers: { "x-json-non-compact": "1" } });
    expect(r.text).toContain("\n  ");
  });
});

describe("rows and errors", () => {
  test("a missing row is 404 with the real API's wording", async () => {
    const r = await c.get("/api/v4/vms/999");
    expect(r.status).toBe(404);
    expect(r.body.error).toBe("Resource '/v4/vms/999' not found during get");
  });

  test("an unknown table is 404", async () => {
    expect((await c.get("/api/v4/no_such_table")).status).toBe(404);
  });

  test("an operation the table does not offer is 405", async () => {
    expect((await c.post("/api/v4/machine_status", {})).status).toBe(405);
  });

  test("the system table answers one object", async () => {
    const r = await c.get("/api/v4/system?fields=$key,yb_version,os_version,cloud_name");
    expect(Array.isArray(r.body)).toBe(false);
    expect(r.body.yb_version).toBe("26.1.0");
  });

  test("$table output comes from the table definition", async () => {
    const r = await c.get("/api/v4/vms/%24table");
    expect(r.body.fields.ram).toMatchObject({ type: "uint32", min: 512, max: 1048576, default: 1024 });
    expect(r.body.fields.console.list).toHaveProperty("spice");
    expect(r.body.fields.machine).toMatchObject({ readonly: true, table: "machines" });
  });
});
