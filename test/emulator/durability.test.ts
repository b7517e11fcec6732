/**
 * Issue 14, emulator side: a write answered 2xx survives SIGKILL of the emulator process, and a key
 * once given out is never given again — the emulator runs as its own process (the built CLI) on a
 * --data-dir, is killed with SIGKILL right after its answers and restarted on the same directory.
 */
import { spawn, type ChildProcess } from "node:child_process";
import https from "node:https";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { jsonRequest, type JsonReply } from "../../emulator/client/jsonRequest";

const CLI = join(__dirname, "../../dist/emulator/cli.js");
// Each test starts emulator processes (Node start-up and a certificate each): slow on a loaded machine.
jest.setTimeout(60_000);
const PASSWORD = "durable-s3cret";

interface Running {
  child: ChildProcess;
  url: string;
}

function start(dataDir: string): Promise<Running> {
  const child = spawn(process.execPath, [CLI, "--port", "0", "--admin-password", PASSWORD, "--data-dir", dataDir, "--time-scale", "0.01"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    child.stderr!.on("data", (c) => (err += c));
    child.stdout!.on("data", (c) => {
      out += c;
      const line = out.split("\n")[0];
      if (out.includes("\n")) resolve({ child, url: line.trim() });
    });
    child.on("exit", (code) => reject(new Error(`emulator exited ${code}: ${err}`)));
  });
}

function kill(running: Running): Promise<void> {
  return new Promise((resolve) => {
    running.child.once("exit", () => resolve());
    running.child.kill("SIGKILL");
  });
}

const agent = new https.Agent({ rejectUnauthorized: false, keepAlive: false });
function call(running: Running, method: string, path: string, body?: unknown): Promise<JsonReply> {
  return jsonRequest({
    method,
    url: `${running.url}/api/v4${path}`,
    agent,
    body,
    headers: { authorization: `Basic ${Buffer.from(`admin:${PASSWORD}`).toString("base64")}` },
  });
}

async function created(running: Running, table: string, body: unknown): Promise<{ $key: string; response?: any }> {
  const r = await call(running, "POST", `/${table}`, body);
  expect(r.status).toBe(201);
  return r.body;
}

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), "emu-durable-"));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));
afterAll(() => agent.destroy());

describe("a write answered 2xx survives SIGKILL of the emulator", () => {
  test("VMs, drives, NICs, updates and deletes answered just before the kill are there after a restart", async () => {
    let emu = await start(dataDir);
    const vm = await created(emu, "vms", { name: "durable" });
    const machine = vm.response.machine;
    const vnet = await created(emu, "vnets", { name: "durable-net", network: "10.77.0.0/24" });
    const drives = [];
    for (let i = 0; i < 5; i++) drives.push(await created(emu, "machine_drives", { machine, name: `d${i}`, disksize: 1024 ** 3 }));
    const nics = [];
    for (let i = 0; i < 5; i++) nics.push(await created(emu, "machine_nics", { machine, vnet: vnet.$key, name: `n${i}` }));
    expect((await call(emu, "PUT", `/vms/${vm.$key}`, { ram: 4096 })).status).toBe(200);
    expect((await call(emu, "DELETE", `/machine_nics/${nics[4].$key}`)).status).toBe(200);
    await kill(emu); // at once: no debounce, no flush on exit

    emu = await start(dataDir);
    try {
      const names = (await call(emu, "GET", `/machine_drives?filter=machine+eq+${machine}&fields=$key,name&sort=name`)).body;
      expect(names).toEqual(drives.map((d, i) => ({ $key: Number(d.$key), name: `d${i}` })));
      const nicNames = (await call(emu, "GET", `/machine_nics?filter=machine+eq+${machine}&fields=name&sort=name`)).body;
      expect(nicNames).toEqual(["n0", "n1", "n2", "n3"].map((name) => ({ name })));
      expect((await call(emu, "GET", `/vms/${vm.$key}?fields=ram`)).body).toEqual({ ram: 4096 });
    } finally {
      await kill(emu);
    }
  });
});

describe("a key is never given twice", () => {
  test("after a SIGKILL, the next NIC gets a key above every key answered before, also a deleted one's", async () => {
    let emu = await start(dataDir);
    const vm = await created(emu, "vms", { name: "keys" });
    const vnet = await created(emu, "vnets", { name: "keys-net", network: "10.78.0.0/24" });
    const first = await created(emu, "machine_nics", { machine: vm.response.machine, vnet: vnet.$key });
    const last = await created(emu, "machine_nics", { machine: vm.response.machine, vnet: vnet.$key });
    expect((await call(emu, "DELETE", `/machine_nics/${last.$key}`)).status).toBe(200);
    await kill(emu);

    emu = await start(dataDir);
    try {
      const next = await created(emu, "machine_nics", { machine: vm.response.machine, vnet: vnet.$key });
      expect(Number(next.$key)).toBeGreaterThan(Number(last.$key));
      expect(Number(last.$key)).toBeGreaterThan(Number(first.$key));
    } finally {
      await kill(emu);
    }
  });

  test("a clean restart (SIGTERM) keeps the counters too", async () => {
    let emu = await start(dataDir);
    const vm = await created(emu, "vms", { name: "term" });
    expect((await call(emu, "DELETE", `/vms/${vm.$key}`)).status).toBe(200);
    await new Promise<void>((resolve) => {
      emu.child.once("exit", () => resolve());
      emu.child.kill("SIGTERM");
    });
    emu = await start(dataDir);
    try {
      const next = await created(emu, "vms", { name: "term-2" });
      expect(Number(next.$key)).toBeGreaterThan(Number(vm.$key));
      expect(Number(next.response.machine)).toBeGreaterThan(Number(vm.response.machine));
    } finally {
      await kill(emu);
    }
  });
});
