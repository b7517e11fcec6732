// `npm run bench` (or `./dev bench`): what a lab costs in API requests, wall
// time and provider memory, under the real engine against the emulator. The
// platform allows 1000 requests per hour per API key, so requests are the
// figure that matters most.
//
// Each lab is the README's first TypeScript example at N VMs (bench/readmeLab:
// VMs declared running, two drives and a NIC each given the VM's machineKey, one
// vnet), run by the language host as `pulumi up` runs it. It goes through up,
// preview, refresh, a grow of one drive per VM and destroy, once per variant:
//   default   no `--parallel`: the engine's default (PULUMI_PARALLEL, else 4 × cores), what a plain `pulumi up` gets;
//   env       the parallelism `vplatform env` sets (env/parallelism.ts).
// They are printed side by side with the recorded baseline (bench/results/baseline.jsonl).
//
// Forms: none or --quick (10 VMs at lab speed, about a minute); --full (50 and 200
// VMs at lab speed, 50 at realistic speed: about an hour on 2 cores); --n1000 (1000
// VMs at lab speed, the default parallelism: over an hour). Options: --sizes=10,50
// (lab speed), --realistic=50 (time scale --scale=10: power-on and hot-plug 20 s,
// power-off 30 s), --variants=default,env, --ops=up,refresh (up always runs; only the
// listed operations follow it), --skip-checkpoints (PULUMI_SKIP_CHECKPOINTS=true),
// --backend=postgres://... (state there instead of a file backend), --detail
// (requests by method and table), --out=results.jsonl (appends each measured
// operation), --record (writes the run's figures into bench/results/current.jsonl,
// replacing the same lab's and variant's), --from=a.jsonl,b.jsonl (prints the tables
// of earlier runs without running anything), --markdown (tables as Markdown),
// --charts (redraws docs/costs/*.svg from bench/results/ without running anything;
// `npm run charts`). A run redraws the charts too.
//
// The class scenario (bench/class/, docs/costs.md "A class"): --class[=30] (that many copies of
// a 3-VM lab at lab speed, 30 by default: about 10 minutes on 2 shared cores), --class-realistic=3 (copies at
// realistic speed, --scale: a clone 50 s at ×10, the clones of one golden VM made as a tree),
// with --detail and --markdown as above; it runs instead of the labs above.
//
// The fixed-cost scenario (bench/fixedCost/, docs/costs.md "The fixed cost of a command"): --fixed-cost[=10,30]
// (a no-change preview and a refresh of those labs through each door, their wall time split phase by phase,
// this checkout against revision 96f6022 built in the cache, and OpenTofu's plan when scripts/build-opentofu.sh
// has built it: about 10 minutes), --repeats=2 (each command that many times, the best kept), --no-baseline
// (this checkout only), with --markdown as above; it runs instead of the labs above.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import got from "got";
import { type RunningEmulator, startEmulator } from "../emulator";
import { DURATIONS } from "../emulator/services/compute/power";
import { createLocalStack, findRepoRoot } from "../env/local-stack";
import { defaultParallelism } from "../env/parallelism";
import { allRunsRows, cpuRows, type Measured, type Op, OPS, renderRows, sideBySideTables } from "./figures";
import { benchClass } from "./class/run";
import { benchFixedCost } from "./fixedCost/run";
import { requestCounter, startLabEmulator } from "./lab";
import { ProcessUsage } from "./processUsage";
import { RESULTS, readResults, recordResults, writeCharts } from "./results";
import { targetRows } from "./targets";

interface Variant {
  name: string;
  /** The parallelism passed to the engine; undefined: none (the engine's default). */
  parallel: (vms: number) => number | undefined;
}

const VARIANTS: Variant[] = [
  { name: "default", parallel: () => undefined },
  { name: "env", parallel: defaultParallelism },
];

/** What a plain `pulumi up` runs at: PULUMI_PARALLEL, else 4 × the CPUs (the engine's defaultParallel()). */
const engineDefaultParallelism = (): number => Number(process.env.PULUMI_PARALLEL) || 4 * os.availableParallelism();

/** The emulator's own transition time an operation waits for (all VMs in parallel), ms. */
const transitionMs = (op: Op, scale: number): number | undefined =>
  op === "up" ? DURATIONS.start * scale : op === "destroy" ? DURATIONS.stop * scale : undefined;

function option(name: string): string | undefined {
  const arg = process.argv.find((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  return arg === undefined ? undefined : (arg.split("=").slice(1).join("=") ?? "");
}
const flag = (name: string) => option(name) !== undefined;
const numbers = (text: string | undefined, fallback: number[]) =>
  text === undefined ? fallback : text.split(",").filter(Boolean).map(Number);
const markdown = () => flag("markdown");
const print = (rows: string[][]) => {
  for (const line of renderRows(rows, markdown())) console.log(line);
};

interface Run {
  n: number;
  scale: number;
  speed: string;
}

/** The labs a form runs: --full and --n1000 add theirs; --sizes and --realistic replace the lab and realistic sizes. */
function plannedRuns(): Run[] {
  const full = flag("full");
  const n1000 = flag("n1000");
  const labDefault = [...(full ? [50, 200] : []), ...(n1000 ? [1000] : [])];
  const labSizes = numbers(option("sizes"), labDefault.length ? labDefault : [10]);
  const realisticSizes = numbers(option("realistic"), full ? [50] : []);
  const scale = Number(option("scale") ?? 10);
  return [...labSizes.map((n) => ({ n, scale: 0.01, speed: "lab" })), ...realisticSizes.map((n) => ({ n, scale, speed: `×${scale}` }))];
}

/** The options above; anything else (a typo of --full, say) is refused rather than silently running the quick form. */
const OPTIONS = [
  "quick",
  "full",
  "n1000",
  "sizes",
  "realistic",
  "scale",
  "variants",
  "ops",
  "skip-checkpoints",
  "backend",
  "detail",
  "out",
  "from",
  "markdown",
  "record",
  "charts",
  "class",
  "class-realistic",
  "fixed-cost",
  "repeats",
  "no-baseline",
  "help",
];

async function main(): Promise<void> {
  const unknown = process.argv.slice(2).filter((a) => !OPTIONS.includes(a.replace(/^--/, "").split("=")[0]));
  if (flag("help") || unknown.length > 0) {
    const usage = fs
      .readFileSync(__filename, "utf8")
      .split("\n")
      .filter((line) => line.startsWith("//"))
      .map((line) => line.slice(3));
    console.log(usage.join("\n"));
    if (unknown.length > 0) {
      console.error(`bench: unknown option ${unknown.join(" ")}: the options are --${OPTIONS.join(", --")}`);
      process.exitCode = 2;
    }
    return;
  }
  if (flag("charts")) return redrawCharts();
  if (flag("class") || flag("class-realistic"))
    return benchClass({
      lab: flag("class") ? numbers(option("class") || "30", []) : [],
      realistic: numbers(option("class-realistic"), []),
      scale: Number(option("scale") ?? 10),
      detail: flag("detail"),
      markdown: markdown(),
    });
  if (flag("fixed-cost")) {
    await benchFixedCost({
      sizes: numbers(option("fixed-cost") || "10,30", []),
      repeats: Number(option("repeats") ?? 2),
      baseline: !flag("no-baseline"),
      markdown: markdown(),
    });
    return;
  }
  const from = option("from");
  if (from) {
    const results = from.split(",").flatMap((file) => readResults(file));
    const recorded = recordedBaseline(results.map((r) => ({ n: r.vms, speed: r.speed, scale: 0 })));
    // bench/results/baseline.jsonl itself may be among the files: its rows show once, as recorded.
    const asRead = (r: Measured) => JSON.stringify({ ...r, recorded: undefined });
    const known = new Set(recorded.map(asRead));
    return report([...recorded, ...results.filter((r) => !known.has(asRead(r)))]);
  }
  const runs = plannedRuns();
  const wanted = option("variants")?.split(",") ?? VARIANTS.map((v) => v.name);
  const variants = VARIANTS.filter((v) => wanted.includes(v.name));
  const out = option("out");

  console.log(
    "vplatform benchmark: the README's first example at N VMs (2 drives and 1 NIC each, declared running), real engine, emulator",
  );
  console.log(
    `engine default parallelism here: ${engineDefaultParallelism()} (PULUMI_PARALLEL, else 4 × ${os.availableParallelism()} CPUs)\n`,
  );
  const results: Measured[] = [];
  for (const run of runs) {
    for (const variant of variants) {
      const measured = await runLab(run, variant, (m) => out && fs.appendFileSync(out, `${JSON.stringify(m)}\n`));
      results.push(...measured);
      print(allRunsRows(measured));
      console.log("");
    }
  }
  report([...recordedBaseline(runs), ...results]);
  if (flag("record")) for (const file of recordResults(findRepoRoot(), results)) console.log(`wrote ${file}`);
  else redrawCharts();
}

function redrawCharts(): void {
  const written = writeCharts(findRepoRoot());
  console.log(written.length ? written.map((file) => `wrote ${file}`).join("\n") : "the charts (docs/costs/*.svg) are up to date");
}

/** The recorded baseline rows of the labs this run measured (the "before" of each table). */
function recordedBaseline(runs: Run[]): Measured[] {
  const recorded = readResults(path.join(findRepoRoot(), RESULTS.baseline));
  const matches = (run: Run, r: Measured) => r.vms === run.n && r.speed === run.speed;
  const unmatched = new Set(
    runs.filter((run) => !recorded.some((r) => matches(run, r))).map((run) => `${run.n} VMs at ${run.speed} speed`),
  );
  for (const lab of unmatched) console.log(`(no recorded baseline for ${lab})`);
  return recorded.filter((r) => runs.some((run) => matches(run, r))).map((r) => ({ ...r, recorded: true }));
}

function report(results: Measured[]): void {
  for (const table of sideBySideTables(results)) {
    console.log(`\n${table.title}:\n`);
    print(table.rows);
  }
  console.log("\nAll runs:\n");
  print(allRunsRows(results));
  if (results.some((r) => r.cpu)) {
    console.log("\nWhere the time went (CPU seconds of each process while the operation ran):\n");
    print(cpuRows(results));
  }
  console.log("\nTargets:\n");
  print(targetRows(results));
}

/** The lab's program: the committed project copied into the run's work directory (each run its own stack settings file). */
function copyProgram(work: string): string {
  const project = path.join(work, "project");
  fs.cpSync(path.join(findRepoRoot(), "bench", "readmeLab"), project, { recursive: true });
  return project;
}

async function runLab(run: Run, variant: Variant, recorded: (m: Measured) => void): Promise<Measured[]> {
  const { n, scale, speed } = run;
  const checkpoints = !flag("skip-checkpoints");
  if (!checkpoints) process.env.PULUMI_SKIP_CHECKPOINTS = "true"; // passed on to the engine with the rest of the environment
  const backendUrl = option("backend");
  const emuOpts = { port: 0, timeScale: scale, quiet: true, rateLimitPerHour: 1_000_000_000 };
  const emu: RunningEmulator = n > 60 ? await startLabEmulator(n, emuOpts) : await startEmulator(emuOpts);
  const root = findRepoRoot();
  fs.mkdirSync(path.join(root, ".e2e-work"), { recursive: true });
  const work = fs.mkdtempSync(path.join(root, ".e2e-work", "bench-"));
  const stack = await createLocalStack({
    stackName: `bench-${path.basename(work).slice("bench-".length)}`,
    ...(backendUrl ? { backendUrl } : { stateDir: path.join(work, "state") }),
    connection: { endpoint: emu.url, apiKey: emu.apiKey, caCert: emu.caCert },
    workDir: copyProgram(work),
    config: { "vplatform:requestBudget": "1000000000", "bench:vms": String(n), "bench:dataGiB": "2" },
  });
  const counter = requestCounter(emu);
  const parallel = variant.parallel(n);
  const opts = { ...(parallel ? { parallel } : {}), color: "never" as const };
  const usage = new ProcessUsage();
  const out: Measured[] = [];
  const measure = async (op: Op, work: () => Promise<unknown>) => {
    await counter("DELETE");
    usage.start();
    const t0 = performance.now();
    try {
      await work();
    } finally {
      const seconds = (performance.now() - t0) / 1000;
      const { peakMiB, cpu } = usage.stop();
      const counts = await counter("GET");
      if (flag("detail"))
        console.log(`${variant.name} ${op}: ${counts.entries.map((e) => `${e.method} ${e.table} ${e.count}`).join(", ")}`);
      const m: Measured = {
        vms: n,
        speed,
        variant: variant.name,
        parallel: parallel ?? engineDefaultParallelism(),
        checkpoints,
        ...(backendUrl ? { backend: new URL(backendUrl).protocol.replace(":", "") } : {}),
        op,
        requests: counts.total,
        seconds,
        transitionMs: transitionMs(op, scale),
        peakMiB,
        cpu,
      };
      out.push(m);
      recorded(m);
    }
  };
  const ops = new Set(option("ops")?.split(",") ?? OPS);
  try {
    await measure("up", () => stack.up(opts));
    if (ops.has("preview")) await measure("preview", () => stack.preview(opts));
    if (ops.has("refresh")) await measure("refresh", () => stack.refresh(opts));
    if (ops.has("grow")) {
      await stack.setConfig("bench:dataGiB", { value: "3" });
      await measure("grow", () => stack.up(opts));
    }
    if (ops.has("destroy")) {
      await measure("destroy", () => stack.destroy(opts));
      const left = await got(`${emu.url}/api/v4/vms?filter=name%20bw%20'bench-'&fields=$key`, {
        headers: { authorization: `Bearer ${emu.apiKey}` },
        https: { certificateAuthority: emu.caCert },
      }).json<unknown[]>();
      if (left.length > 0) console.log(`WARNING: ${left.length} VMs left behind after destroy`);
    }
  } finally {
    await stack.workspace.removeStack(stack.name, { force: true }).catch(() => undefined);
    await emu.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
  return out;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
