import { startTestEmulator, type Client } from "./helpers";

let c: Client;
beforeAll(async () => {
  c = await startTestEmulator({ adminPassword: "secret-pw" });
});
afterAll(() => c.emu.close());

describe("credentials", () => {
  test("a request without credentials gets 401", async () => {
    const r = await c.get("/api/v4/vms", "none");
    expect(r.status).toBe(401);
    expect(r.body.error).toMatch(/login required/);
  });

  test("an unknown API key gets 401", async () => {
    expect((await c.get("/api/v4/vms", { bearer: "vpk_nope" })).status).toBe(401);
  });

  test("basic credentials of the admin work, wrong ones get 401", async () => {
    expect((await c.get("/api/v4/vms", { basic: ["admin", "secret-pw"] })).status).toBe(200);
    expect((await c.get("/api/v4/vms", { basic: ["admin", "wrong"] })).status).toBe(401);
  });

  test("/version.json needs no credentials", async () => {
    const r = await c.get("/version.json", "none");
    expect(r.body).toMatchObject({ version: "26.1.0" });
  });
});

describe("session tokens", () => {
  test("login returns the token in $key, it authenticates in x-service-token, DELETE logs out", async () => {
    const login = await c.post("/api/sys/tokens", { login: "admin", password: "secret-pw" }, "none");
    expect(login.status).toBe(201);
    const token = login.body.$key;
    expect(typeof token).toBe("string");
    expect(login.body.location).toBe(`/sys/tokens/${token}`);
    expect((await c.get("/api/v4/system", { token })).status).toBe(200);
    expect((await c.del(`/api/sys/tokens/${token}`, { token })).status).toBe(200);
    expect((await c.get("/api/v4/system", { token })).status).toBe(401);
  });

  test("a wrong password gets 401", async () => {
    expect((await c.post("/api/sys/tokens", { login: "admin", password: "x" }, "none")).status).toBe(401);
  });
});

describe("permissions", () => {
  test("a read-only user's key reads but gets 403 on writes and $table", async () => {
    const key = await c.emu.createApiKey({ user: "viewer", name: "viewer-key" });
    expect((await c.get("/api/v4/vms", { bearer: key })).status).toBe(200);
    expect((await c.post("/api/v4/vnets", { name: "n1" }, { bearer: key })).status).toBe(403);
    expect((await c.get("/api/v4/vms/$table", { bearer: key })).status).toBe(403);
  });

  test("a VM operator runs VM actions but cannot create VMs or vnets", async () => {
    const key = await c.emu.createApiKey({ user: "operator", name: "op-key" });
    const vm = await c.createVm({ name: "perm-vm" });
    expect((await c.post("/api/v4/vms", { name: "op-vm" }, { bearer: key })).status).toBe(403);
    expect((await c.post("/api/v4/vnets", { name: "op-net" }, { bearer: key })).status).toBe(403);
    expect((await c.post("/api/v4/vm_actions", { vm: vm.vm, action: "poweron" }, { bearer: key })).status).toBe(201);
  });

  test("$table is answered to administrators", async () => {
    const r = await c.get("/api/v4/machine_drives/$table");
    expect(r.status).toBe(200);
    expect(r.body.fields.interface.list["virtio-scsi"]).toBeDefined();
  });
});

describe("API keys", () => {
  test("the secret is answered once at creation and never read back", async () => {
    const r = await c.post("/api/v4/user_api_keys", { name: "ci", description: "for CI" });
    expect(r.status).toBe(201);
    const secret = r.body.response.token;
    expect(secret).toMatch(/^vpk_/);
    expect(r.body.response.private_key).toBe(secret);
    const row = await c.get(`/api/v4/user_api_keys/${r.body.$key}?fields=all`);
    expect(JSON.stringify(row.body)).not.toContain(secret);
    expect((await c.get("/api/v4/system", { bearer: secret })).status).toBe(200);
  });

  test("last login time and address are recorded", async () => {
    const r = await c.post("/api/v4/user_api_keys", { name: "login-rec" });
    await c.get("/api/v4/system", { bearer: r.body.response.token });
    const row = await c.get(`/api/v4/user_api_keys/${r.body.$key}?fields=lastlogin_stamp,lastlogin_ip`);
    expect(row.body.lastlogin_stamp).toBeGreaterThan(0);
    expect(row.body.lastlogin_ip).toBe("127.0.0.1");
  });

  test("deleting a key revokes it at once", async () => {
    const r = await c.post("/api/v4/user_api_keys", { name: "short-lived" });
    const secret = r.body.response.token;
    expect((await c.del(`/api/v4/user_api_keys/${r.body.$key}`)).status).toBe(200);
    expect((await c.get("/api/v4/system", { bearer: secret })).status).toBe(401);
  });

  test("an expired key fails, and an expiry in the past is refused at creation", async () => {
    const bad = await c.post("/api/v4/user_api_keys", { name: "past", expires_type: "date", expires: 1000 });
    expect(bad.status).toBe(400);
    expect(bad.body.err).toMatch(/'expires'/);
    const secret = await c.emu.createApiKey({ name: "soon", expiresAt: Math.floor(Date.now() / 1000) + 3 }); // room for a busy machine
    expect((await c.get("/api/v4/system", { bearer: secret })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 4100));
    expect((await c.get("/api/v4/system", { bearer: secret })).status).toBe(401);
  });

  test("IP lists: deny-only refuses, allow wins over deny, allow excludes others", async () => {
    const denied = await c.emu.createApiKey({ name: "deny", ipDeny: ["127.0.0.0/8"] });
    expect((await c.get("/api/v4/system", { bearer: denied })).status).toBe(401);
    const both = await c.emu.createApiKey({ name: "both", ipAllow: ["127.0.0.1"], ipDeny: ["127.0.0.0/8"] });
    expect((await c.get("/api/v4/system", { bearer: both })).status).toBe(200);
    const elsewhere = await c.emu.createApiKey({ name: "elsewhere", ipAllow: ["10.0.0.0/8"] });
    expect((await c.get("/api/v4/system", { bearer: elsewhere })).status).toBe(401);
  });

  test("an invalid IP list entry is a validation error naming the field", async () => {
    const r = await c.post("/api/v4/user_api_keys", { name: "bad-ip", ip_allow_list: "10.0.0.0/99" });
    expect(r.status).toBe(400);
    expect(r.body.err).toMatch(/ip_allow_list/);
  });
});

describe("rate limit", () => {
  test("past the hourly budget of a key the answer is 429 with Retry-After; other keys are unaffected", async () => {
    const limited = await startTestEmulator({ rateLimitPerHour: 5 });
    try {
      const key = await limited.emu.createApiKey({ name: "limited" });
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await limited.get("/api/v4/system", { bearer: key })).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
      const r = await limited.get("/api/v4/system", { bearer: key });
      expect(Number(r.headers["retry-after"])).toBeGreaterThan(0);
      expect((await limited.get("/api/v4/system")).status).toBe(200);
    } finally {
      await limited.emu.close();
    }
  });
});
