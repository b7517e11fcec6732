import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestEmulator, type Client } from "./helpers";

let c: Client;
beforeAll(async () => {
  c = await startTestEmulator();
});
afterAll(() => c.emu.close());

describe("bad input", () => {
  test("malformed JSON is 400 and the server keeps serving", async () => {
    const r = await c.request("POST", "/api/v4/vms", { raw: '{"name": ' });
    expect(r.status).toBe(400);
    expect(r.body.err).toMatch(/malformed JSON/);
    expect((await c.get("/api/v4/vms")).status).toBe(200);
  });

  test("wrong types name the field", async () => {
    const r = await c.post("/api/v4/vms", { name: "typed", ram: "lots" });
    expect(r.status).toBe(400);
    expect(r.body.err).toMatch(/'ram'/);
    expect((await c.post("/api/v4/vms", { name: { x: 1 } })).status).toBe(400);
    expect((await c.post("/api/v4/vms", [1, 2])).status).toBe(400);
  });

  test("unknown fields are refused", async () => {
    const r = await c.post("/api/v4/vms", { name: "unknown", colour: "red" });
    expect(r.status).toBe(400);
    expect(r.body.err).toMatch(/'colour'/);
  });

  test("a refused create leaves no row behind", async () => {
    await c.post("/api/v4/vms", { name: "ghost", ram: 1 });
    expect((await c.get("/api/v4/vms?filter=name+eq+'ghost'")).body).toEqual([]);
    expect((await c.get("/api/v4/machines?filter=vm+ne+null")).body).toHaveLength((await c.get("/api/v4/vms")).body.length);
  });

  test("huge bodies are 413", async () => {
    const r = await c.request("POST", "/api/v4/vms", { raw: JSON.stringify({ name: "x".repeat(5 * 1024 * 1024) }) });
    expect(r.status).toBe(413);
  });

  test("path tricks are 400/404, never a crash", async () => {
    expect((await c.get("/api/v4/vms/..%2f..%2fetc")).status).toBe(400);
    expect([400, 404]).toContain((await c.get("/api/v4/%2e%2e/vms")).status); // clients may resolve the dots first
    expect((await c.get("/api/v4/vms/%ZZ")).status).toBe(400);
    expect((await c.get("/api/v4/vms/1/extra")).status).toBe(404);
    expect((await c.get("/api/v4/volume_browser/")).status).toBe(404);
    expect((await c.get("/api/v5/vms")).status).toBe(404);
  });

  test("an empty body with a JSON content type is fine on DELETE", async () => {
    const vm = await c.createVm({ name: "empty-del" });
    const r = await c.request("DELETE", `/api/v4/vms/${vm.vm}`, { raw: "", headers: { "content-type": "application/json" } });
    expect(r.status).toBe(200);
  });
});

describe("fault injection and request counter", () => {
  test("every /api request is counted by key, method and table; DELETE resets", async () => {
    await c.del("/_emulator/requests");
    await c.get("/api/v4/vms");
    await c.get("/api/v4/vms");
    await c.get("/api/v4/vnets", "none");
    const r = (await c.get("/_emulator/requests")).body;
    expect(r.total).toBe(3);
    expect(r.byKey).toEqual({ "emulator-admin": 2, anonymous: 1 });
    expect(r.entries).toContainEqual({ key: "emulator-admin", method: "GET", table: "vms", count: 2 });
  });

  test("a fault answers its status for count requests, then the API answers normally", async () => {
    const f = await c.post("/_emulator/faults", { method: "POST", table: "vm_actions", status: 408, count: 1 });
    expect(f.status).toBe(201);
    expect(typeof f.body.id).toBe("number");
    const vm = await c.createVm({ name: "faulty" });
    expect((await c.post("/api/v4/vm_actions", { vm: vm.vm, action: "poweron" })).status).toBe(408);
    expect((await c.post("/api/v4/vm_actions", { vm: vm.vm, action: "poweron" })).status).toBe(201);
  });

  test("retryAfter gives the injected status a Retry-After header (a rate limit's 429); it needs a status", async () => {
    await c.post("/_emulator/faults", { method: "GET", table: "nodes", status: 429, retryAfter: 2, count: 1 });
    const refused = await c.get("/api/v4/nodes");
    expect([refused.status, refused.headers["retry-after"]]).toEqual([429, "2"]);
    expect((await c.get("/api/v4/nodes")).status).toBe(200);
    expect((await c.post("/_emulator/faults", { method: "GET", table: "nodes", stallMs: 1, retryAfter: 2 })).status).toBe(400);
  });

  test("a dropped connection is an error on the client", async () => {
    await c.post("/_emulator/faults", { method: "GET", table: "nodes", drop: true, count: 1 });
    await expect(c.get("/api/v4/nodes")).rejects.toThrow();
    expect((await c.get("/api/v4/nodes")).status).toBe(200);
  });

  test("dropAfter processes the request and then drops the connection: the row lands, the answer is lost", async () => {
    await c.post("/_emulator/faults", { method: "POST", table: "vnets", dropAfter: true, count: 1 });
    await expect(c.post("/api/v4/vnets", { name: "landed-silently" })).rejects.toThrow();
    const rows = (await c.get("/api/v4/vnets?filter=name%20eq%20'landed-silently'")).body;
    expect(rows).toHaveLength(1);
  });

  test("faults can be listed and cleared; the hooks need an administrator", async () => {
    await c.post("/_emulator/faults", { table: "*", method: "*", stallMs: 1, probability: 0 });
    expect((await c.get("/_emulator/faults")).body.length).toBeGreaterThan(0);
    await c.del("/_emulator/faults");
    expect((await c.get("/_emulator/faults")).body).toEqual([]);
    const viewer = await c.emu.createApiKey({ user: "viewer", name: "v" });
    expect((await c.get("/_emulator/requests", { bearer: viewer })).status).toBe(403);
    expect((await c.get("/_emulator/requests", "none")).status).toBe(401);
  });
});

describe("persistence", () => {
  test("state survives a restart with the same data dir", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "vplatform-emu-"));
    const first = await startTestEmulator({ dataDir, adminPassword: "pw" });
    const vm = await first.createVm({ name: "persisted", ram: 2048 });
    const key = await first.emu.createApiKey({ name: "kept" });
    await first.emu.close();
    expect(JSON.parse(readFileSync(join(dataDir, "state.json"), "utf8")).format).toBe(1);
    const second = await startTestEmulator({ dataDir, adminPassword: "pw" });
    try {
      expect((await second.get(`/api/v4/vms/${vm.vm}?fields=name,ram`)).body).toEqual({ name: "persisted", ram: 2048 });
      expect((await second.get("/api/v4/system", { bearer: key })).status).toBe(200);
      expect((await second.get(`/api/v4/machine_status/${vm.machine}`)).body.status).toBe("stopped");
    } finally {
      await second.emu.close();
    }
  });
});
