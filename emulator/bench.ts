/**
 * `npm run bench:emulator`: request rates of the emulator on loopback —
 * GETs of one row and of a filtered list, and a mixed create/read/delete
 * workload — with 32 concurrent keep-alive connections for 3 s each; then the
 * cost of durability: the same writes in memory, with a --data-dir (journal
 * appended before each answer) and with --fsync, as writes/s and µs per write.
 */
import https from "node:https";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildContext, startEmulator, type EmulatorOptions } from "./index";
import { Persister } from "./persistence/store";
import { jsonRequest } from "./client/jsonRequest";
import { COMPUTE } from "./model/names/compute";

const CONCURRENCY = 32;
const SECONDS = 3;

async function run(name: string, step: () => Promise<number>): Promise<number> {
  const end = Date.now() + SECONDS * 1000;
  let done = 0;
  let failed = 0;
  const worker = async () => {
    while (Date.now() < end) {
      const status = await step();
      if (status >= 400) failed++;
      done++;
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const rate = done / ((Date.now() - started) / 1000);
  process.stdout.write(`${name.padEnd(34)} ${rate.toFixed(0).padStart(6)} req/s  (${done} requests, ${failed} errors)\n`);
  return rate;
}

async function connect(opts: EmulatorOptions = {}) {
  const emu = await startEmulator({ rateLimitPerHour: 10_000_000, timeScale: 0.01, ...opts });
  const agent = new https.Agent({ ca: emu.caCert, keepAlive: true, maxSockets: CONCURRENCY });
  const call = (method: string, path: string, body?: unknown) =>
    jsonRequest({ method, url: `${emu.url}${path}`, agent, body, headers: { authorization: `Bearer ${emu.apiKey}` } });
  const close = async () => {
    agent.destroy();
    await emu.close();
  };
  return { call, close };
}

/** Write requests per second (a NIC created, then updated, then deleted: three writes) in one persistence mode. */
async function writeRate(name: string, opts: EmulatorOptions): Promise<number> {
  const { call, close } = await connect(opts);
  const vm = await call("POST", "/api/v4/vms", { name: "durable" });
  const machine = vm.body.response.machine;
  const cycles = await run(`${name} (NIC create+PUT+DELETE)`, async () => {
    const nic = await call("POST", "/api/v4/machine_nics", { machine, vnet: 1 });
    if (nic.status !== 201) return nic.status;
    await call("PUT", `/api/v4/machine_nics/${nic.body.$key}`, { description: "x" });
    return (await call("DELETE", `/api/v4/machine_nics/${nic.body.$key}`)).status;
  });
  await close();
  return cycles * 3;
}

/** µs per journaled write, measured without HTTP: a NIC row changed and committed, as before an answer. */
function journalCost(dataDir: string, fsync: boolean, writes = 2000): number {
  const ctx = buildContext({ dataDir, adminPassword: "bench", timeScale: 0.01 });
  const persister = new Persister(ctx, dataDir, { fsync });
  ctx.onChange = (table, key) => persister.changed(table, key);
  const nic = ctx.insert(COMPUTE.machine_nics, { machine: 100, vnet: 1, name: "bench", description: "" });
  const started = process.hrtime.bigint();
  for (let i = 0; i < writes; i++) {
    ctx.update(COMPUTE.machine_nics, nic.$key, { description: `write ${i}` });
    persister.commit();
  }
  const micros = Number(process.hrtime.bigint() - started) / 1000 / writes;
  persister.close();
  ctx.close();
  return micros;
}

async function durability(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "emu-bench-"));
  try {
    const memory = await writeRate("writes, in memory", {});
    const journal = await writeRate("writes, --data-dir (journal)", { dataDir: join(dir, "journal") });
    const fsync = await writeRate("writes, --data-dir --fsync", { dataDir: join(dir, "fsync"), fsync: true });
    process.stdout.write(
      `write requests/s over HTTPS: memory ${memory.toFixed(0)}, journal ${journal.toFixed(0)} (${((100 * journal) / memory).toFixed(0)}%), journal+fsync ${fsync.toFixed(0)} (${((100 * fsync) / memory).toFixed(0)}%)\n`,
    );
    process.stdout.write(
      `journal cost per acknowledged write: ${journalCost(join(dir, "direct"), false).toFixed(1)} µs (write(2)), ${journalCost(join(dir, "direct-fsync"), true).toFixed(1)} µs with fsync\n`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { call, close } = await connect();
  for (let i = 0; i < 50; i++) await call("POST", "/api/v4/vms", { name: `bench-${i}`, ram: 1024 + i });
  await run("GET /v4/vms/1", async () => (await call("GET", "/api/v4/vms/1")).status);
  await run(
    "GET /v4/vms?filter&fields (50 rows)",
    async () => (await call("GET", "/api/v4/vms?filter=ram+gt+1040&fields=name,machine%23status%23status+as+status")).status,
  );
  let n = 0;
  await run("mixed cycles/s (create+3 GET+DELETE)", async () => {
    const created = await call("POST", "/api/v4/vms", { name: `mixed-${n++}` });
    if (created.status !== 201) return created.status;
    for (let i = 0; i < 3; i++) await call("GET", `/api/v4/vms/${created.body.$key}?fields=most`);
    return (await call("DELETE", `/api/v4/vms/${created.body.$key}`)).status;
  });
  await close();
  await durability();
}

main().catch((e) => {
  process.stderr.write(`${e.stack}\n`);
  process.exit(1);
});
