/**
 * `npm run bench:emulator`: request rates of the emulator on loopback —
 * GETs of one row and of a filtered list, and a mixed create/read/delete
 * workload — with 32 concurrent keep-alive connections for 3 s each.
 */
import https from "node:https";
import { startEmulator } from "./index";

const CONCURRENCY = 32;
const SECONDS = 3;

async function run(name: string, step: () => Promise<number>): Promise<void> {
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
}

async function main(): Promise<void> {
  const emu = await startEmulator({ rateLimitPerHour: 10_000_000, timeScale: 0.01 });
  const agent = new https.Agent({ ca: emu.caCert, keepAlive: true, maxSockets: CONCURRENCY });
  const call = (method: string, path: string, body?: unknown) =>
    new Promise<{ status: number; body: any }>((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = https.request(`${emu.url}${path}`, {
        method, agent, headers: { authorization: `Bearer ${emu.apiKey}`, ...(payload ? { "content-type": "application/json" } : {}) },
      }, (res) => {
        let text = "";
        res.on("data", (c) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
      });
      req.on("error", reject);
      req.end(payload);
    });
  for (let i = 0; i < 50; i++) await call("POST", "/api/v4/vms", { name: `bench-${i}`, ram: 1024 + i });
  await run("GET /v4/vms/1", async () => (await call("GET", "/api/v4/vms/1")).status);
  await run("GET /v4/vms?filter&fields (50 rows)", async () =>
    (await call("GET", "/api/v4/vms?filter=ram+gt+1040&fields=name,machine%23status%23status+as+status")).status);
  let n = 0;
  await run("mixed cycles/s (create+3 GET+DELETE)", async () => {
    const created = await call("POST", "/api/v4/vms", { name: `mixed-${n++}` });
    if (created.status !== 201) return created.status;
    for (let i = 0; i < 3; i++) await call("GET", `/api/v4/vms/${created.body.$key}?fields=most`);
    return (await call("DELETE", `/api/v4/vms/${created.body.$key}`)).status;
  });
  agent.destroy();
  await emu.close();
}

main().catch((e) => {
  process.stderr.write(`${e.stack}\n`);
  process.exit(1);
});
