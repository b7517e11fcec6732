// `npm run bench` (or `./dev bench`): what a lab costs in API requests, wall
// time and provider memory, under the real engine (Automation API) against the
// emulator. The platform allows 1000 requests per hour per API key, so
// requests are the figure that matters most.
//
// Each lab (N VMs with two drives and one NIC, powered on) runs up, preview,
// refresh, a grow of one drive per VM, and destroy, once per variant:
//   new       the working tree, engine default parallelism;
//   new+par   the working tree, parallelism 4 × VMs (waits are cheap now).
// They are printed before/after against the recorded baseline (bench/baseline.jsonl):
// the old per-resource behaviour (a poll per waiting resource, a GET per read, the
// machine-key guard on every check, hardware deleted one by one), measured with the
// engine's default parallelism before those paths left the provider.
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
// --variants=new,new+par, --detail (requests by method and table),
// --skip-checkpoints (PULUMI_SKIP_CHECKPOINTS=true: the rows say so),
// --out=results.jsonl (appends each measured operation), --from=a.jsonl,b.jsonl
// (prints the tables and targets of earlier runs without running anything),
// --markdown (the tables as Markdown, as the README carries them).
import * as fs from "node:fs";
import * as path from "node:path";
import got from "got";
import { startEmulator, type RunningEmulator } from "../emulator";
import { DURATIONS } from "../emulator/domain/power";
import { createLocalStack, findRepoRoot } from "../env/local-stack";
import { labProgram, startLabEmulator, type LabShape } from "./lab";
import { ProviderMemory } from "./providerMemory";

type Op = "up" | "preview" | "refresh" | "grow" | "destroy";
interface Variant {
  name: string;
  parallel?: (vms: number) => number;
}

const VARIANTS: Variant[] = [{ name: "new" }, { name: "new+par", parallel: (vms) => Math.max(32, 4 * vms) }];

/** The figures of the old per-resource behaviour, measured once and committed with the bench. */
const RECORDED_BASELINE = "bench/baseline.jsonl";

const floor = (op: Op, n: number): number => ({ up: 6 * n + 1, preview: 0, refresh: 4, grow: n, destroy: 3 * n + 1 })[op];
/** The emulator's own transition time an operation waits for (all VMs in parallel), ms. */
const transitionMs = (op: Op, scale: number): number | undefined =>
  op === "up" ? DURATIONS.start * scale : op === "destroy" ? DURATIONS.stop * scale : undefined;

interface Measured {
  vms: number;
  speed: string;
  variant: string;
  /** false when the run set PULUMI_SKIP_CHECKPOINTS (the file backend then writes state only at the end). */
  checkpoints: boolean;
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
const numbers = (text: string | undefined, fallback: number[]) =>
  text === undefined ? fallback : text.split(",").filter(Boolean).map(Number);

async function main(): Promise<void> {
  const from = option("from");
  if (from) return report(from.split(",").flatMap((file) => readResults(file)));
  const quick = option("quick") !== undefined;
  const labSizes = numbers(option("sizes"), quick ? [10] : [10, 50, 200]);
  const realisticSizes = numbers(option("realistic"), quick ? [] : [10, 50]);
  const scale = Number(option("scale") ?? 10);
  const wanted = option("variants")?.split(",") ?? VARIANTS.map((v) => v.name);
  const variants = VARIANTS.filter((v) => wanted.includes(v.name));
  const runs = [
    ...labSizes.map((n) => ({ n, scale: 0.01, speed: "lab" })),
    ...realisticSizes.map((n) => ({ n, scale, speed: `×${scale}` })),
  ];
  const out = option("out");

  console.log("vplatform benchmark: N VMs with 2 drives and 1 NIC each, powered on, under the real engine against the emulator\n");
  const results: Measured[] = [];
  for (const run of runs) {
    for (const variant of variants) {
      const measured = await runLab(run.n, run.scale, run.speed, variant, (m) => out && fs.appendFileSync(out, `${JSON.stringify(m)}\n`));
      results.push(...measured);
      printTable(measured);
      console.log("");
    }
  }
  report([...recordedBaseline(runs), ...results]);
}

/** The recorded baseline rows of the labs this run measured (the "before" of each table). */
function recordedBaseline(runs: { n: number; speed: string }[]): Measured[] {
  const recorded = readResults(path.join(findRepoRoot(), RECORDED_BASELINE));
  const wanted = runs.filter((run) => recorded.some((r) => r.vms === run.n && r.speed === run.speed));
  for (const run of runs.filter((r) => !wanted.includes(r))) console.log(`(no recorded baseline for ${run.n} VMs at ${run.speed} speed)`);
  return recorded.filter((r) => wanted.some((run) => r.vms === run.n && r.speed === run.speed));
}

function readResults(file: string): Measured[] {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Measured);
}

function report(results: Measured[]): void {
  console.log("All runs:\n");
  printTable(results);
  printLifecycle(results);
  printTargets(results);
}

async function runLab(n: number, timeScale: number, speed: string, variant: Variant, measured: (m: Measured) => void): Promise<Measured[]> {
  const checkpoints = option("skip-checkpoints") === undefined;
  if (!checkpoints) process.env.PULUMI_SKIP_CHECKPOINTS = "true"; // passed on to the engine with the rest of the environment
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
    got(`${emu.url}/_emulator/requests`, { method, ...admin }).json<{
      total: number;
      entries: { method: string; table: string; count: number }[];
    }>();
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
      if (option("detail") !== undefined)
        console.log(`${variant.name} ${op}: ${counts.entries.map((e) => `${e.method} ${e.table} ${e.count}`).join(", ")}`);
      const m: Measured = {
        vms: n,
        speed,
        variant: variant.name,
        checkpoints,
        op,
        requests: counts.total,
        seconds,
        transitionMs: transitionMs(op, timeScale),
        peakMiB,
      };
      out.push(m);
      measured(m);
    }
  };
  try {
    await measure("up", () => stack.up(opts));
    await measure("preview", () => stack.preview(opts));
    await measure("refresh", () => stack.refresh(opts));
    shape.dataGiB = 3;
    await measure("grow", () => stack.up(opts));
    await measure("destroy", () => stack.destroy(opts));
    const left = await got(`${emu.url}/api/v4/vms?filter=name%20bw%20'bench-'&fields=$key`, {
      headers: { authorization: `Bearer ${emu.apiKey}` },
      https: { certificateAuthority: emu.caCert },
    }).json<unknown[]>();
    if (left.length > 0) console.log(`WARNING: ${left.length} VMs left behind after destroy`);
  } finally {
    await stack.workspace.removeStack(stack.name, { force: true }).catch(() => undefined);
    await emu.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
  return out;
}

const variantLabel = (r: Measured) =>
  (r.checkpoints ? r.variant : `${r.variant} (no checkpoints)`) + (r.variant === "baseline" ? " (recorded)" : "");

/** Aligned columns, or a Markdown table with --markdown. */
function printRows(rows: string[][]): void {
  if (option("markdown") !== undefined) {
    const [head, ...body] = rows;
    for (const r of [head, head.map(() => "---"), ...body]) console.log(`| ${r.join(" | ")} |`);
    return;
  }
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  for (const r of rows)
    console.log(
      r
        .map((cell, c) => cell.padEnd(widths[c]))
        .join("  ")
        .trimEnd(),
    );
}

const ratio = (r: Measured): number | undefined => {
  const f = floor(r.op, r.vms);
  return f === 0 ? (r.requests === 0 ? 1 : undefined) : r.requests / f;
};

function printTable(results: Measured[]): void {
  const rows = [["VMs", "speed", "variant", "op", "requests", "per VM", "floor", "× floor", "seconds", "× transition", "provider MiB"]];
  for (const r of results) {
    const x = ratio(r);
    rows.push([
      String(r.vms),
      r.speed,
      variantLabel(r),
      r.op,
      String(r.requests),
      (r.requests / r.vms).toFixed(1),
      String(floor(r.op, r.vms)),
      x === undefined ? "—" : x.toFixed(2),
      r.seconds.toFixed(1),
      r.transitionMs && r.transitionMs >= 1000 ? (r.seconds / (r.transitionMs / 1000)).toFixed(1) : "", // lab speed's 20 ms is no yardstick
      r.peakMiB ? String(r.peakMiB) : "?",
    ]);
  }
  printRows(rows);
}

/** The measured operations of one lab and variant, by operation. */
function labs(results: Measured[]): { vms: number; speed: string; label: string; variant: string; ops: Partial<Record<Op, Measured>> }[] {
  const groups = new Map<string, { vms: number; speed: string; label: string; variant: string; ops: Partial<Record<Op, Measured>> }>();
  for (const r of results) {
    const key = `${r.vms}|${r.speed}|${variantLabel(r)}`;
    if (!groups.has(key)) groups.set(key, { vms: r.vms, speed: r.speed, label: variantLabel(r), variant: r.variant, ops: {} });
    groups.get(key)!.ops[r.op] = r;
  }
  return [...groups.values()];
}

const OPS: Op[] = ["up", "preview", "refresh", "grow", "destroy"];

/** A whole lifecycle per lab: requests per VM and VMs one key's 1000 requests/hour cover. */
function printLifecycle(results: Measured[]): void {
  console.log("\nWhole lifecycle (up, preview, refresh, grow, destroy):\n");
  const rows = [["VMs", "speed", "variant", "requests", "per VM", "VMs per key-hour"]];
  for (const lab of labs(results)) {
    if (OPS.some((op) => !lab.ops[op])) continue; // an incomplete run
    const total = OPS.reduce((s, op) => s + lab.ops[op]!.requests, 0);
    rows.push([
      String(lab.vms),
      lab.speed,
      lab.label,
      String(total),
      (total / lab.vms).toFixed(1),
      String(Math.floor(1000 / (total / lab.vms))),
    ]);
  }
  printRows(rows);
}

/**
 * The issue's targets, checked on every measured lab of the new variants they
 * apply to. The 100-VM lifecycle target (1000 requests) is 10 requests per VM,
 * checked on every lab of 50 VMs or more.
 */
function printTargets(results: Measured[]): void {
  console.log("\nTargets (new variants):\n");
  const rows = [["target", "lab", "variant", "measured", "met"]];
  const check = (target: string, lab: ReturnType<typeof labs>[number], measured: number | undefined, limit: number, unit = "") => {
    if (measured === undefined) return;
    rows.push([
      target,
      `${lab.vms} VMs ${lab.speed}`,
      lab.label,
      `${Number(measured.toFixed(2))}${unit}`,
      measured <= limit ? "yes" : "NO",
    ]);
  };
  for (const lab of labs(results).filter((l) => l.variant !== "baseline")) {
    const { up, preview, refresh, destroy } = lab.ops;
    const largest = (speed: string) => Math.max(...results.filter((r) => r.speed === speed).map((r) => r.vms));
    if (lab.vms === largest(lab.speed) || lab.vms >= 200) check("up ≤ 1.3× floor (largest lab)", lab, up && ratio(up), 1.3, "×");
    check("destroy ≤ 1.5× floor", lab, destroy && ratio(destroy), 1.5, "×");
    if (lab.vms >= 200) {
      check("preview ≤ 20 requests (200 VMs)", lab, preview?.requests, 20);
      check("refresh ≤ 20 requests (200 VMs)", lab, refresh?.requests, 20);
      check("provider < 300 MiB (200 VMs)", lab, up && Math.max(...OPS.map((op) => lab.ops[op]?.peakMiB ?? 0)), 299, " MiB");
    }
    if (lab.vms >= 50 && OPS.every((op) => lab.ops[op])) {
      check("lifecycle ≤ 10 requests per VM (1000 per 100 VMs)", lab, OPS.reduce((s, op) => s + lab.ops[op]!.requests, 0) / lab.vms, 10);
    }
    if (lab.vms === 50 && lab.speed !== "lab" && up?.transitionMs)
      check("up ≤ 1.5× transition (50 VMs realistic)", lab, up.seconds / (up.transitionMs / 1000), 1.5, "×");
  }
  printRows(rows);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
