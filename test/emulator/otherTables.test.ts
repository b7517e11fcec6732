/**
 * Issue 20: the "other tables" a team looks up — certificates, licenses, logs, machine_logs, catalogs and
 * cluster_tiers — are served over HTTPS, read-only, with seeded rows and the fields the maker's clients read
 * (their names are checked in clientFieldNames.test.ts); logs grow with what the emulator does.
 */
import { powerOnAndWait, startTestEmulator, type Client } from "./helpers";

let c: Client;
beforeAll(async () => {
  c = await startTestEmulator();
});
afterAll(() => c.emu.close());

const READ_ONLY_TABLES = ["certificates", "licenses", "logs", "machine_logs", "catalogs", "cluster_tiers", "cluster_tier_status"];

describe("the other tables are read-only", () => {
  test.each(READ_ONLY_TABLES)("POST /v4/%s answers 405 and stores nothing", async (table) => {
    const before = (await c.get(`/api/v4/${table}?fields=$key`)).body.length;
    expect((await c.post(`/api/v4/${table}`, { name: "x" })).status).toBe(405);
    expect((await c.get(`/api/v4/${table}?fields=$key`)).body).toHaveLength(before);
  });
});

describe("seeded rows answer what the maker's clients read", () => {
  test("a self-signed certificate valid for a year, whose private key is never returned", async () => {
    const [cert] = (await c.get("/api/v4/certificates?fields=all")).body;
    expect(cert).toMatchObject({ domain: "vplatform.local", type: "self_signed", key_type: "ecdsa", valid: true, autocreated: true });
    expect(cert.public).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    const inAYear = Date.now() / 1000 + 365 * 86400;
    expect(Math.abs(cert.expires - inAYear)).toBeLessThan(3600);
    expect(cert).not.toHaveProperty("private");
    const named = (await c.get(`/api/v4/certificates/${cert.$key}?fields=private`)).body;
    expect(JSON.stringify(named)).not.toContain("PRIVATE KEY");
  });

  test("a license valid from the first start for a year", async () => {
    const [license] = (await c.get("/api/v4/licenses?fields=name,valid_from,valid_until,features")).body;
    expect(license.name).toBe("Emulator license");
    expect(license.valid_until - license.valid_from).toBe(365 * 86400);
    expect(license.features).toEqual(expect.objectContaining({ nodes: 4 }));
  });

  test("a catalog of the marketplace repository, named through repository#name", async () => {
    const catalogs = (await c.get("/api/v4/catalogs?fields=name,repository%23name+as+repository_display,publishing_scope")).body;
    expect(catalogs).toEqual([{ name: "Operating systems", repository_display: "Marketplace", publishing_scope: "global" }]);
  });

  test("one cluster tier per storage tier, whose status#capacity is the storage tier's", async () => {
    const fields = "tier,cluster%23name+as+cluster_name,status%23capacity+as+capacity,status%23status+as+status";
    const tiers = (await c.get(`/api/v4/cluster_tiers?fields=${fields}&sort=tier`)).body;
    const storage = (await c.get("/api/v4/storage_tiers?fields=tier,capacity&sort=tier")).body;
    expect(tiers).toEqual(storage.map((s: { tier: number; capacity: number }) => ({ ...s, cluster_name: "cluster1", status: "online" })));
  });
});

describe("logs grow with what the emulator does", () => {
  test("the first start writes a system line", async () => {
    const lines = (await c.get("/api/v4/logs?filter=object_type+eq+'system'&fields=level,text")).body;
    expect(lines).toContainEqual({ level: "message", text: "system started" });
  });

  test("a power-on and a power-off write a logs line (microsecond time) and a machine_logs line each", async () => {
    const { vm, machine } = await c.createVm({ name: "logged-vm" });
    const start = Date.now() * 1000;
    await powerOnAndWait(c, vm, machine);
    await c.post("/api/v4/vm_actions", { vm, action: "kill" });
    await c.waitFor(`/api/v4/machine_status/${machine}`, (s) => s.status === "stopped");
    const lines = (await c.get(`/api/v4/logs?filter=object_key+eq+'${vm}'&fields=text,object_type,timestamp&sort=timestamp`)).body;
    expect(lines.map((l: { text: string }) => l.text)).toEqual(["VM 'logged-vm' powered on", "VM 'logged-vm' powered off"]);
    expect(lines[0].object_type).toBe("vm");
    expect(lines[0].timestamp).toBeGreaterThanOrEqual(start);
    const machineLines = (await c.get(`/api/v4/machine_logs?filter=machine+eq+${machine}&fields=text&sort=$key`)).body;
    expect(machineLines).toEqual([{ text: "powered on" }, { text: "powered off" }]);
  });

  test("a deleted VM's machine log goes with its machine", async () => {
    const { vm, machine } = await c.createVm({ name: "short-lived" });
    await powerOnAndWait(c, vm, machine);
    await c.post("/api/v4/vm_actions", { vm, action: "kill" });
    await c.waitFor(`/api/v4/machine_status/${machine}`, (s) => s.status === "stopped");
    expect((await c.del(`/api/v4/vms/${vm}`)).status).toBeLessThan(300);
    expect((await c.get(`/api/v4/machine_logs?filter=machine+eq+${machine}`)).body).toEqual([]);
  });
});
