// The class scenario of `npm run bench` (--class): a course team's environment
// file (bench/class/class.yaml's shape: a golden VM and a lab of three VMs, each
// cloned from it with a drive and a NIC, a user and an API key per copy, a
// `start` snapshot of each VM) run the way `vplatform env` runs it: up, roster,
// reset --all (twice: the stack keeps what the first saw), destroy, each at the CLI's default parallelism, against the
// emulator at lab speed (and at realistic speed where asked). Requests come from
// the emulator's counter, memory from the provider processes the engine starts;
// after the up, the emulator's recorder says whether the clones went through a
// tree, and the platform whether the copies are equal.
import * as fs from "node:fs";
import * as path from "node:path";
import got from "got";
import { parse } from "yaml";
import type { RecordedExchange } from "../../emulator/admin/recorder";
import { DURATIONS } from "../../emulator/services/compute/power";
import { parseCliArgs } from "../../env/cli-args";
import { engineEnv, findRepoRoot } from "../../env/local-stack";
import { runEnvironmentCommand } from "../../env/run-command";
import { requestCounter, startLabEmulator } from "../lab";
import { ProcessUsage } from "../processUsage";
import { CLASS_PHASES, type ClassMeasured, type ClassPhase, type ClassShape, classFloor, classRows, commandOf, hourVerdict } from "./floor";
import { renderRows } from "../figures";
import { type PlatformReader, cloneTree, clonesIn, copiesDiffering, madeLine } from "./copies";
import { planCopies } from "../../provider/plan/lab";

export interface ClassRun {
  copies: number;
  /** The emulator's time scale: 0.01 at lab speed. */
  scale: number;
  speed: string;
  /** Keeps the run's recording (every request and answer, the emulator's recorder) in this JSON-lines file. */
  record?: string;
}

/** The class file with `copies` copies: the committed bench/class/class.yaml, its count replaced. */
export function classFile(copies: number): string {
  const text = fs.readFileSync(path.join(findRepoRoot(), "bench", "class", "class.yaml"), "utf8");
  return text.replace(/^(\s+copies:) \d+/m, `$1 ${copies}`);
}

interface ClassLab {
  name: string;
  copies: number;
  pool: string;
  vms: { name: string }[];
}
const labOf = (text: string) => (parse(text) as { labs: ClassLab[] }).labs[0];

/** VMs a copy of the file has (its lab's `vms` entries). */
export const vmsPerCopy = (text: string): number => labOf(text).vms.length;

const readRecording = (file: string): RecordedExchange[] =>
  fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));

export async function runClass(run: ClassRun, detail: boolean): Promise<ClassMeasured[]> {
  const text = classFile(run.copies);
  const shape: ClassShape = { copies: run.copies, vmsPerCopy: vmsPerCopy(text) };
  const vms = shape.copies * shape.vmsPerCopy;
  const root = findRepoRoot();
  fs.mkdirSync(path.join(root, ".e2e-work"), { recursive: true });
  const work = fs.mkdtempSync(path.join(root, ".e2e-work", "class-"));
  const recording = run.record ?? path.join(work, "requests.jsonl");
  // Room for the class's running VMs; no rate limit, so the whole cost is seen rather than cut off at 1000.
  const emu = await startLabEmulator(vms + 1, {
    port: 0,
    timeScale: run.scale,
    quiet: true,
    rateLimitPerHour: 1_000_000_000,
    record: recording,
  });
  const bearer = { headers: { authorization: `Bearer ${emu.apiKey}` }, https: { certificateAuthority: emu.caCert } };
  const admin = { username: emu.adminUser, password: emu.adminPassword, https: { certificateAuthority: emu.caCert } };
  const reader: PlatformReader = {
    api: (apiPath) => got(`${emu.url}/api${apiPath}`, bearer).json(),
    content: (driveKey) => got(`${emu.url}/_emulator/drives/${driveKey}/content`, admin).json(),
  };
  const file = path.join(work, "class.yaml");
  fs.writeFileSync(file, text);
  // As a user's shell exports them: the environment's program runs in the CLI's process and reads them there too.
  // The provider paces itself to the platform's 1000 requests an hour by default: lifted, so the whole cost is measured.
  Object.assign(process.env, {
    VPLATFORM_ENDPOINT: emu.url,
    VPLATFORM_API_KEY: emu.apiKey,
    VPLATFORM_CA_CERT: emu.caCert,
    VPLATFORM_REQUEST_BUDGET: "1000000000",
  });
  const env = { ...process.env, ...engineEnv(path.join(work, "state")) };
  const counter = requestCounter(emu);
  const usage = new ProcessUsage();
  const out: ClassMeasured[] = [];
  const cli = async (phase: ClassPhase, ...argv: string[]) => {
    const command = commandOf(phase);
    const parsed = parseCliArgs([command, file, "--stack", "class", ...argv]);
    if (!parsed.ok) throw new Error(parsed.message);
    const stderr: string[] = [];
    const stdout: string[] = [];
    await counter("DELETE");
    usage.start();
    const startedAt = Date.now();
    const t0 = performance.now();
    const code = await runEnvironmentCommand(parsed.args, { stdout: (s) => stdout.push(s), stderr: (s) => stderr.push(s) }, env, work);
    const seconds = (performance.now() - t0) / 1000;
    const { peakMiB } = usage.stop();
    const counts = await counter("GET");
    if (code !== 0)
      throw new Error(`vplatform env ${command} exited ${code}:\n${stderr.join("").slice(-4000)}\n${stdout.join("").slice(-2000)}`);
    const made = phase === "up" ? await madeClass(startedAt) : {};
    // The CLI says its parallelism: engine slots for up and destroy, VMs at once for a reset (all of them).
    const said = /parallelism (\d+)/.exec(stderr.join(""));
    const parallel = said ? Number(said[1]) : command === "reset" ? vms : undefined;
    const byTable = Object.fromEntries(counts.entries.map((e) => [`${e.method} ${e.table}`, e.count]));
    if (detail)
      console.log(
        `${phase}: ${Object.entries(byTable)
          .map(([t, n]) => `${t} ${n}`)
          .join(", ")}`,
      );
    const engine = phase === "up" || phase === "destroy";
    out.push({
      ...shape,
      phase,
      speed: run.speed,
      ...(parallel === undefined ? {} : { parallel }),
      requests: counts.total,
      byTable,
      seconds,
      ...(engine ? { peakMiB } : {}),
      ...made,
    });
    return stdout.join("");
  };
  /** After the up (its requests counted): when the last VM ran, how the clones were made, which copies differ. */
  const madeClass = async (startedAt: number): Promise<Pick<ClassMeasured, "readySeconds" | "tree" | "differing">> => {
    const statuses = await reader.api("/v4/machine_status?fields=started,running");
    const last = Math.max(...statuses.filter((s) => s.running === true).map((s) => Number(s.started ?? 0)));
    const tree = cloneTree(clonesIn(readRecording(recording)), DURATIONS.clone * run.scale);
    const lab = labOf(text);
    const differing = await copiesDiffering(
      reader,
      planCopies(lab).map((c) => c.name),
      lab.vms.map((v) => v.name),
    );
    const made = { readySeconds: last - startedAt / 1000, tree, differing };
    console.log(`${run.speed}, ${run.copies} copies: up: ${madeLine(made)}`);
    return made;
  };
  try {
    for (const phase of CLASS_PHASES) {
      const shown = await cli(phase, ...(commandOf(phase) === "reset" ? ["--all"] : []));
      if (phase === "roster" && detail) console.log(shown.split("\n").slice(0, 5).join("\n"));
    }
    const left = await got(`${emu.url}/api/v4/vms?fields=$key`, {
      headers: { authorization: `Bearer ${emu.apiKey}` },
      https: { certificateAuthority: emu.caCert },
    }).json<unknown[]>();
    if (left.length > 0) console.log(`WARNING: ${left.length} VMs left behind after destroy`);
  } finally {
    await emu.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
  return out;
}

export interface ClassForm {
  /** Copies per run at lab speed, then at realistic speed (time scale `scale`). */
  lab: number[];
  realistic: number[];
  scale: number;
  detail: boolean;
  markdown: boolean;
}

/** Runs the form's classes one after the other and prints their table, the floors and the hour's verdict. */
export async function benchClass(form: ClassForm): Promise<void> {
  const runs: ClassRun[] = [
    ...form.lab.map((copies) => ({ copies, scale: 0.01, speed: "lab" })),
    ...form.realistic.map((copies) => ({ copies, scale: form.scale, speed: `×${form.scale}` })),
  ];
  console.log(
    "vplatform benchmark, class scenario: bench/class/class.yaml run as `vplatform env` runs it (up, roster, reset --all twice, destroy)\n",
  );
  const results: ClassMeasured[] = [];
  for (const run of runs) {
    results.push(...(await runClass(run, form.detail)));
    for (const line of renderRows(classRows(results.slice(-CLASS_PHASES.length)), form.markdown)) console.log(line);
    console.log("");
  }
  console.log("All class runs:\n");
  for (const line of renderRows(classRows(results), form.markdown)) console.log(line);
  console.log("\nThe floor (requests no client can avoid):");
  for (const phase of CLASS_PHASES.filter((p) => p !== "reset again"))
    console.log(`  ${phase}: ${classFloor(phase, { copies: 1, vmsPerCopy: 1 }).what}`);
  console.log("\nThe ups (the recorder's clones, the copies compared):");
  for (const up of results.filter((r) => r.phase === "up" && r.tree))
    console.log(
      `  ${up.speed}, ${up.copies} copies: ${madeLine({ readySeconds: up.readySeconds ?? 0, tree: up.tree!, differing: up.differing ?? [] })}`,
    );
  console.log("\nOne API key's hour (1000 requests):");
  for (const line of hourVerdict(results)) console.log(`  ${line}`);
}
