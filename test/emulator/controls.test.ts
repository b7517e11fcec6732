/**
 * The emulator's test controls over real HTTPS: the manual clock, chaos controls, the request recorder
 * with replay, and named snapshots.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readRecording, replay } from "../../emulator/admin/replay";
import { startTestEmulator, type Client } from "./helpers";

const GiB = 1024 ** 3;
const scratch = () => mkdtempSync(join(tmpdir(), "emu-controls-"));

describe("the manual clock: transitions wait until the test advances them", () => {
  let c: Client;
  beforeAll(async () => {
    c = await startTestEmulator({ clock: "manual" });
  });
  afterAll(() => c.emu.close());

  test("a VM powered on stays starting until the clock is advanced past its 2 s start", async () => {
    const { vm, machine } = await c.createVm({ name: "held" });
    expect((await c.post("/api/v4/vm_actions", { vm, action: "poweron" })).status).toBe(201);
    const status = async () => (await c.get(`/api/v4/machine_status/${machine}?fields=status`)).body.status;
    expect(await status()).toBe("starting");
    expect((await c.get("/_emulator/clock")).body).toMatchObject({ mode: "manual", pending: 1, dueInMs: [2000] });
    expect((await c.post("/_emulator/clock/advance", { ms: 1999 })).body).toMatchObject({ ran: 0, pending: 1 });
    expect(await status()).toBe("starting");
    expect((await c.post("/_emulator/clock/advance", { ms: 1 })).body).toMatchObject({ ran: 1, pending: 0 });
    expect(await status()).toBe("running");
  });

  test("advanceClock of startEmulator does the same from the test's process", async () => {
    const { vm, machine } = await c.createVm({ name: "held-too" });
    await c.post("/api/v4/vm_actions", { vm, action: "poweron" });
    expect(c.emu.advanceClock()).toBe(1);
    expect((await c.get(`/api/v4/machine_status/${machine}?fields=status`)).body.status).toBe("running");
  });

  test("the platform's time moves with the clock: a key expires by advancing, and the Date header tells the time", async () => {
    const before = Date.parse((await c.get("/_emulator/clock")).headers.date!);
    const expiresAt = Math.floor(before / 1000) + 60;
    const secret = await c.emu.createApiKey({ name: "minute", expiresAt });
    expect((await c.get("/api/v4/vms?fields=name", { bearer: secret })).status).toBe(200);
    c.emu.advanceClock(61_000);
    const after = await c.get("/api/v4/vms?fields=name", { bearer: secret });
    expect(after.status).toBe(401);
    // The manual clock stands still in real time: the header moved by exactly the time advanced.
    expect(Date.parse(after.headers.date!) - before).toBe(61_000);
  });

  test("an emulator on the real-time clock refuses to be advanced, saying how to get a manual one", async () => {
    const real = await startTestEmulator();
    try {
      const r = await real.post("/_emulator/clock/advance", { ms: 10 });
      expect([r.status, r.body.error]).toEqual([409, expect.stringMatching(/clock: 'manual'/)]);
    } finally {
      await real.emu.close();
    }
  });
});

describe("chaos controls: per table and method, probability, latency, status and body", () => {
  let c: Client;
  beforeAll(async () => {
    c = await startTestEmulator({ randomSeed: 1 });
  });
  afterAll(() => c.emu.close());
  afterEach(() => c.del("/_emulator/chaos"));

  test("an armed rule answers its status and body on its table and method only, and adds its latency", async () => {
    const rule = { method: "GET", table: "vnets", status: 503, body: { error: "vnet service sick" }, latencyMs: 150 };
    const armed = await c.post("/_emulator/chaos", rule);
    expect(armed.status).toBe(201);
    const started = Date.now();
    const sick = await c.get("/api/v4/vnets");
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect([sick.status, sick.body]).toEqual([503, { error: "vnet service sick" }]);
    expect((await c.get("/api/v4/nodes")).status).toBe(200);
    expect((await c.get("/_emulator/chaos")).body.rules).toEqual([expect.objectContaining({ id: armed.body.id, table: "vnets", hits: 1 })]);
  });

  test("rules are listed with the seed and cleared one by one", async () => {
    const { body } = await c.post("/_emulator/chaos", { table: "vms", status: 500 });
    expect((await c.get("/_emulator/chaos")).body).toMatchObject({ seed: 1, rules: [{ id: body.id }] });
    expect((await c.del(`/_emulator/chaos/${body.id}`)).status).toBe(200);
    expect((await c.del(`/_emulator/chaos/${body.id}`)).status).toBe(404);
    expect((await c.get("/api/v4/vms")).status).toBe(200);
  });

  test("with the same seed a probabilistic rule hits the same requests", async () => {
    const pattern = async () => {
      await c.put("/_emulator/seed", { seed: 99 });
      await c.post("/_emulator/chaos", { table: "nodes", probability: 0.5, status: 503 });
      let seen = "";
      for (let i = 0; i < 16; i++) seen += (await c.get("/api/v4/nodes")).status === 503 ? "x" : ".";
      await c.del("/_emulator/chaos");
      return seen;
    };
    const first = await pattern();
    expect(first).toMatch(/x/);
    expect(first).toMatch(/\./);
    expect(await pattern()).toBe(first);
  });

  test("the admin API refuses a rule naming the field, and needs an administrator", async () => {
    const r = await c.post("/_emulator/chaos", { table: "vms", status: 503, colour: "red" });
    expect([r.status, r.body.err]).toEqual([400, expect.stringMatching(/'colour'/)]);
    const viewer = await c.emu.createApiKey({ user: "viewer", name: "ro-chaos" });
    expect((await c.get("/_emulator/chaos", { bearer: viewer })).status).toBe(403);
  });
});

describe("the request recorder: JSON lines without secrets, replayed against another emulator", () => {
  test("records while switched on, redacts secrets, and a replay reports the answers that differ", async () => {
    const source = await startTestEmulator();
    const target = await startTestEmulator();
    const file = join(scratch(), "requests.jsonl");
    try {
      expect((await source.put("/_emulator/recorder", { file })).body).toMatchObject({ recording: true, file });
      const key = await source.post("/api/v4/user_api_keys", { name: "recorded" });
      await source.post("/api/v4/users", { name: "alice", password: "s3cret-pw", role: "readonly" });
      await source.post("/api/v4/vnets", { name: "only-on-source" });
      await source.get("/api/v4/vnets?fields=name&sort=name");
      expect((await source.del("/_emulator/recorder")).body).toMatchObject({ recording: false, recorded: 4 });
      await source.get("/api/v4/nodes"); // not recorded

      const text = readFileSync(file, "utf8");
      expect(text).not.toContain(key.body.response.token);
      expect(text).not.toContain("s3cret-pw");
      expect(text).not.toContain(source.emu.apiKey);
      const exchanges = readRecording(file);
      expect(exchanges.map((e) => `${e.method} ${e.url} ${e.status}`)).toEqual([
        "POST /api/v4/user_api_keys 201",
        "POST /api/v4/users 201",
        "POST /api/v4/vnets 201",
        "GET /api/v4/vnets?fields=name&sort=name 200",
      ]);
      expect(exchanges[0]).toMatchObject({ auth: "bearer", answer: { response: { token: "<redacted>" } } });

      const ignore = new Set<string>();
      const to = { url: target.emu.url, apiKey: target.emu.apiKey, ca: target.emu.caCert };
      expect(await replay(exchanges, to, ignore)).toEqual([]); // a fresh emulator answers alike
      const again = await replay(exchanges, to, ignore); // a second key gets another key; the names exist: creations conflict
      expect(again.map((d) => d.request)).toEqual(["POST /api/v4/user_api_keys", "POST /api/v4/users", "POST /api/v4/vnets"]);
      expect(again[0].differences).toContainEqual(expect.stringMatching(/^\$key: /));
      expect(again[1].differences).toEqual(["status: 201 ≠ 409"]);
    } finally {
      await source.emu.close();
      await target.emu.close();
    }
  });
});

describe("a replay is sent at the recorded pace", () => {
  test("a status read recorded after a VM started finds it started on the target too; sent at once, it would not", async () => {
    const source = await startTestEmulator();
    const file = join(scratch(), "power.jsonl");
    try {
      await source.put("/_emulator/recorder", { file });
      const { vm, machine } = await source.createVm({ name: "paced" });
      await source.post("/api/v4/vm_actions", { vm, action: "poweron" });
      // One status read, well after the start (20 ms at this time scale): the pace leaves the target the same time.
      await new Promise((r) => setTimeout(r, 600));
      expect((await source.get(`/api/v4/machine_status/${machine}?fields=status`)).body.status).toBe("running");
      await source.del("/_emulator/recorder");
      const exchanges = readRecording(file);
      for (const [label, sleep] of [
        ["paced", undefined],
        ["at once", async () => undefined],
      ] as const) {
        const target = await startTestEmulator();
        try {
          const to = { url: target.emu.url, apiKey: target.emu.apiKey, ca: target.emu.caCert };
          const found = await replay(exchanges, to, new Set(), sleep);
          if (label === "paced") expect(found).toEqual([]);
          else
            expect(found.flatMap((d) => d.differences)).toContainEqual(
              expect.stringMatching(/^status: "(stopped|starting)" ≠|^status: "running" ≠/),
            );
        } finally {
          await target.emu.close();
        }
      }
    } finally {
      await source.emu.close();
    }
  });
});

describe("snapshots: the whole state saved under a name and loaded back", () => {
  /** The saved tables of a snapshot file, without what belongs to the emulator that loads it (its admin key and password). */
  const tablesOf = (file: string) => {
    const { tables } = JSON.parse(readFileSync(file, "utf8"));
    tables.user_api_keys.rows = tables.user_api_keys.rows.filter((k: { name: string }) => k.name !== "emulator-admin");
    for (const user of tables.users.rows) delete user.password;
    return tables;
  };

  test("a 50-VM lab round-trips exactly: every row, every key counter, and no key is given twice after the load", async () => {
    const snapshotDir = scratch();
    const lab = await startTestEmulator({ snapshotDir });
    const fresh = await startTestEmulator({ snapshotDir });
    try {
      const vnet = (await lab.post("/api/v4/vnets", { name: "lab-net" })).body.$key;
      for (let i = 0; i < 50; i++) {
        const { machine } = await lab.createVm({ name: `lab-${i}`, cpu_cores: 1 + (i % 4), ram: 1024 });
        await lab.post("/api/v4/machine_drives", { machine, media: "disk", interface: "virtio-scsi", disksize: GiB });
        await lab.post("/api/v4/machine_nics", { machine, vnet });
      }
      await lab.post("/api/v4/vms", { name: "deleted-later" }).then((r) => lab.del(`/api/v4/vms/${r.body.$key}`));
      const saved = await lab.post("/_emulator/snapshots", { name: "lab50" });
      expect(saved.status).toBe(201);

      const started = Date.now();
      const loaded = await fresh.post("/_emulator/snapshots/lab50/load", {});
      const loadMs = Date.now() - started;
      expect(loaded.status).toBe(200);
      expect(loadMs).toBeLessThan(2000);
      fresh.emu.saveSnapshot("reloaded");
      expect(tablesOf(join(snapshotDir, "reloaded.json"))).toEqual(tablesOf(join(snapshotDir, "lab50.json")));

      const lastVm = (await fresh.get("/api/v4/vms?filter=name+eq+'lab-49'&fields=name,cpu_cores")).body;
      expect(lastVm).toEqual([{ name: "lab-49", cpu_cores: 2 }]);
      const labNext = (await lab.createVm({ name: "next" })).vm;
      expect((await fresh.createVm({ name: "next" })).vm).toBe(labNext); // the counter, not a reused key of the deleted VM
      expect((await fresh.get("/_emulator/snapshots")).body.map((s: { name: string }) => s.name)).toEqual(["lab50", "reloaded"]);
    } finally {
      await lab.emu.close();
      await fresh.emu.close();
    }
  });

  test("startEmulator({ load }) starts from a snapshot, with the new emulator's own credentials", async () => {
    const snapshotDir = scratch();
    const first = await startTestEmulator({ snapshotDir });
    await first.post("/api/v4/vnets", { name: "fixture-net" });
    first.emu.saveSnapshot("fixture");
    await first.emu.close();
    const second = await startTestEmulator({ snapshotDir, load: "fixture" });
    try {
      expect((await second.get("/api/v4/vnets?filter=name+eq+'fixture-net'&fields=name")).body).toEqual([{ name: "fixture-net" }]);
      expect((await second.get("/api/v4/system", { basic: ["admin", second.emu.adminPassword] })).status).toBe(200);
    } finally {
      await second.emu.close();
    }
  });

  test("a corrupt, foreign or missing snapshot is refused with the reason and the running state stays untouched", async () => {
    const snapshotDir = scratch();
    const c = await startTestEmulator({ snapshotDir });
    try {
      await c.post("/api/v4/vnets", { name: "still-here" });
      c.emu.saveSnapshot("good");
      const good = JSON.parse(readFileSync(join(snapshotDir, "good.json"), "utf8"));
      writeFileSync(join(snapshotDir, "foreign.json"), JSON.stringify({ ...good, tables_fingerprint: "0000000000000000" }));
      writeFileSync(join(snapshotDir, "corrupt.json"), readFileSync(join(snapshotDir, "good.json"), "utf8").slice(0, 500));
      const before = (await c.get("/api/v4/vnets?fields=name")).body;

      const foreign = await c.post("/_emulator/snapshots/foreign/load", {});
      expect([foreign.status, foreign.body.error]).toEqual([422, expect.stringMatching(/another emulator version.*save it again/)]);
      const corrupt = await c.post("/_emulator/snapshots/corrupt/load", {});
      expect([corrupt.status, corrupt.body.error]).toEqual([422, expect.stringMatching(/is corrupt/)]);
      expect((await c.post("/_emulator/snapshots/absent/load", {})).status).toBe(404);
      expect((await c.post("/_emulator/snapshots", { name: "../escape" })).status).toBe(400);
      expect(existsSync(join(snapshotDir, "..", "escape.json"))).toBe(false);
      expect((await c.get("/api/v4/vnets?fields=name")).body).toEqual(before);
    } finally {
      await c.emu.close();
    }
  });
});
