// `npm run bench` (or `./dev bench`): what a lab costs in API requests, wall
// time and provider memory, under the real engine (Automation API) against the
// emulator. The platform allows 1000 requests per hour per API key, so
// requests are the figure that matters most.
//
// Each lab (N VMs with two drives and one NIC, powered on) runs up, preview,
// refresh, a grow of one drive per VM, and destroy, once per variant:
//   baseline  the old per-resource behaviour (VPLATFORM_BASELINE=all: a poll per
//             waiting resource, a GET per read, the machine-key guard on every
//             check, hardware deleted one by one), engine default parallelism;
//   new       every mechanism on, engine default parallelism;
//   new+par   every mechanism on, parallelism 4 × VMs (waits are cheap now).
//
// The floor, per operation (the requests no client can avoid):
//   up       6 per VM (POST VM, 2 POST drives, POST NIC, power-on, 1 status read) + 1 (POST vnet)
//   preview  0 (nothing changed)
//   refresh  4 in all (one filtered GET per table: vnets, vms, machine_drives, machine_nics)
//   grow     1 per VM (PUT of the drive)
//   destroy  3 per VM (power-off, 1 status read, DELETE of the VM, which takes its hardware) + 1 (DELETE vnet)
//
// Options: --quick (10 VMs at lab speed only), --sizes=10,50,200 (lab speed),
// --realistic=10,50 (time scale --scale=10: power-on 20 s, power-off 30 s),
// --variants=baseline,new,new+par, --detail (requests by method and table).
import * as fs from "fs";
import * as path from "path";
import got from "got";
import { startEmulator, type RunningEmulator } from "../emulator";
import { DURATIONS } from "../emulator/domain/power";
import { createLocalStack, findRepoRoot } from "../env/local-stack";
import { labProgram, startLabEmulator, type LabShape } from "./lab";
import { ProviderMemory } from "./providerMemory";

type Op = "up" | "preview" | "refresh" | "grow" | "destroy";
interface Variant {
  name: string;
  baseline: string;
  parallel?: (vms: number) => number;
}

const VARIANTS: Variant[] = [
  { name: "baseline", baseline: "all" },
  { name: "new", baseline: "" },
  { name: "new+par", baseline: "", parallel: (vms) => Math.max(32, 4 * vms) },
];

const floor = (op: Op, n: number): number => ({ up: 6 * n + 1, preview: 0, refresh: 4, grow: n, destroy: 3 * n + 1 })[op];
/** The emulator's own transition time an operation waits for (all VMs in parallel), ms. */
const transitionMs = (op: Op, scale: number): number | undefined =>
  op === "up" ? DURATIONS.start * scale : op === "destroy" ? DURATIONS.stop * scale : undefined;

interface Measured {
  vms: number;
  speed: string;
  variant: string;
  op: Op;
  requests: number;
  seconds: number;
  transitionMs?: number;
  peakMiB: number;
}

function option(name: string): string | undefined {
  const arg = process.argv.find((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  return arg === undefined ? undefined : (arg.split("=")[1] ?? "");
}
const numbers = (text: string | undefined, fallback: number[]) => (text === undefined ? fallback : text.split(",").filter(Boolean).map(Number));

async function main(): Promise<void> {
  const quick = option("quick") !== undefined;
  const labSizes = numbers(option("sizes"), quick ? [10] : [10, 50, 200]);
  const realisticSizes = numbers(option("realistic"), quick ? [] : [10, 50]);
  const scale = Number(option("scale") ?? 10);
  const wanted = option("variants")?.split(",") ?? VARIANTS.map((v) => v.name);
  const variants = VARIANTS.filter((v) => wanted.includes(v.name));
  const runs = [...labSizes.map((n) => ({ n, scale: 0.01, speed: "lab" })), ...realisticSizes.map((n) => ({ n, scale, speed: `×${scale}` }))];

  console.log("vplatform benchmark: N VMs with 2 drives and 1 NIC each, powered on, under the real engine against the emulator\n");
  const results: Measured[] = [];
  for (const run of runs) {
    for (const variant of variants) {
      const measured = await runLab(run.n, run.scale, run.speed, variant);
      results.push(...measured);
      printTable(measured);
      console.log("");
    }
  }
  console.log("All runs:\n");
  printTable(results);
  printLifecycle(results);
}

async function runLab(n: number, timeScale: number, speed: string, variant: Variant): Promise<Measured[]> {
  process.env.VPLATFORM_BASELINE = variant.baseline; // read by the SDK (this process) and the provider (the engine's child)
  const emuOpts = { port: 0, timeScale, quiet: true, rateLimitPerHour: 1_000_000_000 };
  const emu: RunningEmulator = n > 60 ? await startLabEmulator(n, emuOpts) : await startEmulator(emuOpts);
  const root = findRepoRoot();
  fs.mkdirSync(path.join(root, ".e2e-work"), { recursive: true });
  const work = fs.mkdtempSync(path.join(root, ".e2e-work", "bench-"));
  const shape: LabShape = { vms: n, dataGiB: 2, prefix: "bench" };
  const stack = await createLocalStack({
    stackName: "bench",
    stateDir: path.join(work, "state"),
    connection: { endpoint: emu.url, apiKey: emu.apiKey, caCert: emu.caCert },
    program: { projectName: "vplatform-bench", fn: labProgram(() => shape), workDir: work },
    config: { "vplatform:requestBudget": "1000000000" },
  });
  const admin = { username: emu.adminUser, password: emu.adminPassword, https: { certificateAuthority: emu.caCert } };
  const counter = (method: "GET" | "DELETE") =>
    got(`${emu.url}/_emulator/requests`, { method, ...admin }).json<{ total: number; entries: { method: string; table: string; count: number }[] }>();
  const parallel = variant.parallel?.(n);
  const opts = { ...(parallel ? { parallel } : {}), color: "never" as const };
  const memory = new ProviderMemory();
  const out: Measured[] = [];
  const measure = async (op: Op, work: () => Promise<unknown>) => {
    await counter("DELETE");
    memory.start();
    const t0 = performance.now();
    try {
      await work();
    } finally {
      const seconds = (performance.now() - t0) / 1000;
      const peakMiB = memory.stop();
      const counts = await counter("GET");
      if (option("detail") !== undefined) console.log(`${variant.name} ${op}: ${counts.entries.map((e) => `${e.method} ${e.table} ${e.count}`).join(", ")}`);
      out.push({ vms: n, speed, variant: variant.name, op, requests: counts.total, seconds, transitionMs: transitionMs(op, timeScale), peakMiB });
    }
  };
  try {
    await measure("up", () => stack.up(opts));
    await measure("preview", () => stack.preview(opts));
    await measure("refresh", () => stack.refresh(opts));
    shape.dataGiB = 3;
    await measure("grow", () => stack.up(opts));
    await measure("destroy", () => stack.destroy(opts));
    const left = await got(`${emu.url}/api/v4/vms?filter=name%20bw%20'bench-'&fields=$key`, { headers: { authorization: `Bearer ${emu.apiKey}` }, https: { certificateAuthority: emu.caCert } }).json<unknown[]>();
    if (left.length > 0) console.log(`WARNING: ${left.length} VMs left behind after destroy`);
  } finally {
    await stack.workspace.removeStack(stack.name, { force: true }).catch(() => undefined);
    await emu.close();
    fs.rmSync(work, { recursive: true, force: true });
    delete process.env.VPLATFORM_BASELINE;
  }
  return out;
}

function printTable(results: Measured[]): void {
  const rows = [["VMs", "speed", "variant", "op", "requests", "per VM", "floor", "× floor", "seconds", "× transition", "provider MiB"]];
  for (const r of results) {
    const f = floor(r.op, r.vms);
    rows.push([
      String(r.vms),
      r.speed,
      r.variant,
      r.op,
      String(r.requests),
      (r.requests / r.vms).toFixed(1),
      String(f),
      f === 0 ? (r.requests === 0 ? "1.00" : "—") : (r.requests / f).toFixed(2),
      r.seconds.toFixed(1),
      r.transitionMs ? (r.seconds / (r.transitionMs / 1000)).toFixed(1) : "",
      r.peakMiB ? String(r.peakMiB) : "?",
    ]);
  }
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  for (const r of rows) console.log(r.map((cell, c) => cell.padEnd(widths[c])).join("  "));
}

/** A whole lifecycle per lab: requests per VM and VMs one key's 1000 requests/hour cover. */
function printLifecycle(results: Measured[]): void {
  console.log("\nWhole lifecycle (up, preview, refresh, grow, destroy):\n");
  const groups = new Map<string, Measured[]>();
  for (const r of results) groups.set(`${r.vms}|${r.speed}|${r.variant}`, [...(groups.get(`${r.vms}|${r.speed}|${r.variant}`) ?? []), r]);
  const rows = [["VMs", "speed", "variant", "requests", "per VM", "VMs per key-hour"]];
  for (const [key, rs] of groups) {
    const [vms, speed, variant] = key.split("|");
    const total = rs.reduce((s, r) => s + r.requests, 0);
    rows.push([vms, speed, variant, String(total), (total / Number(vms)).toFixed(1), String(Math.floor(1000 / (total / Number(vms))))]);
  }
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  for (const r of rows) console.log(r.map((cell, c) => cell.padEnd(widths[c])).join("  "));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
