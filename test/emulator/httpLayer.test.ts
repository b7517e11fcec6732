/**
 * The HTTP layer's composition: the gate plugins (authentication, counting, faults, chaos, rate limit)
 * act on the `/api` scope only, and the parametric routes check their parameters and options by schema.
 */
import { startTestEmulator, type Client } from "./helpers";

let c: Client;
beforeAll(async () => {
  c = await startTestEmulator();
});
afterAll(() => c.emu.close());

describe("the gate plugins are encapsulated in the /api scope", () => {
  test("a fault and a chaos rule on every table and method leave /_emulator and /version.json alone", async () => {
    await c.post("/_emulator/faults", { method: "*", table: "*", status: 500 });
    await c.post("/_emulator/chaos", { method: "*", table: "*", status: 503 });
    expect((await c.get("/api/v4/vms")).status).toBe(500);
    expect((await c.get("/version.json", "none")).status).toBe(200);
    expect((await c.get("/_emulator/faults")).status).toBe(200);
    await c.del("/_emulator/faults");
    expect((await c.get("/api/v4/vms")).status).toBe(503);
    await c.del("/_emulator/chaos");
    expect((await c.get("/api/v4/vms")).status).toBe(200);
  });

  test("only /api requests are counted; /version.json needs no credentials, /_emulator needs an administrator", async () => {
    await c.del("/_emulator/requests");
    await c.get("/api/v4/nodes");
    await c.get("/version.json", "none");
    await c.get("/_emulator/faults");
    expect((await c.get("/_emulator/requests")).body.total).toBe(1);
    expect((await c.get("/_emulator/requests", "none")).status).toBe(401);
  });
});

describe("the parametric routes check parameters and options by schema", () => {
  test("limit and offset must be non-negative integers, named in the 400", async () => {
    const r = await c.get("/api/v4/vms?limit=-1");
    expect([r.status, r.body.err]).toEqual([400, "Validation error on field: 'limit' - 'must be a non-negative integer'"]);
    expect((await c.get("/api/v4/vms?offset=x")).body.err).toMatch(/'offset'/);
  });

  test("a row key that is a path trick is refused; unknown tables and deeper paths are 404, after authentication", async () => {
    expect((await c.get("/api/v4/vms/%00")).status).toBe(400);
    expect((await c.get("/api/v4/colours")).status).toBe(404);
    expect((await c.get("/api/v4/colours", "none")).status).toBe(401);
    expect((await c.get("/api/v4/vms/1/a/b")).status).toBe(404);
  });
});
