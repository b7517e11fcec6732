// A killed run never costs the state. `vplatform env up` and `vplatform env destroy` of a 20-VM environment,
// SIGKILLed as a whole process group (what a CI job's timeout, the OOM killer or a closed laptop does) at seeded
// points spread over each run: as the engine starts a provider process (before that process's first call), while
// the CLI and engine start (full form), at a share of the run's progress (an up's rows made on the platform; a
// destroy's steps as its checkpoints record them: the platform's rows go in one burst at its end), and inside a
// checkpoint write
// (the state is made large: each VM carries a 30 KB cloud-init file: 1.5 MB, so each write takes a while; the run is
// frozen until a write is caught in progress, then killed). After each kill one plain run of
// the same command, and at most the one `pulumi cancel` the lock message prints, converges: exit 0, each row
// once (after an up) or none left (after a destroy), the state naming exactly those rows, and no process of the
// killed run alive 10 s after the kill. CI runs a few points; `npm run test:kill` runs twelve per command
// (VPLATFORM_KILL_SEED picks another schedule).
import { type ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import got from "got";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { findRepoRoot } from "../../env/local-stack";
import { processesOfRun, RUN_MARKER } from "./processes";
import { type Run, runProgram } from "./teamRepo";
import { FULL_FORM } from "../fullForm";

const full = FULL_FORM;
const SEED = Number(process.env.VPLATFORM_KILL_SEED ?? 43);
/** Kill points per command. */
const POINTS = Number(process.env.VPLATFORM_KILL_POINTS ?? (full ? 12 : 2));
const VMS = 20;
const STACK = "dev";
const FILE = "environments/class.yaml";
/** Rows an up makes, counted as the platform shows them: each VM, its drive and NIC, its power-on; the vnet. */
const ROWS = VMS * 4 + 1;
const PROCESS_GRACE_MS = 10_000;
/** How soon the CLI must end once its engine is killed: it reports and exits, nothing more. */
const CLI_EXIT_MS = 15_000;

const cli = path.join(findRepoRoot(), "dist", "env", "cli.js");
const vmName = (i: number) => `kill-vm-${String(i).padStart(2, "0")}`;

function environmentFile(): string {
  const userData = `#cloud-config\n# ${"x".repeat(30_000)}\n`; // a large state: every checkpoint write takes a while
  const vms = Array.from(
    { length: VMS },
    (_, i) =>
      `  - name: ${vmName(i)}\n    ram: 1024\n    powerState: running\n    cloudinitDatasource: nocloud\n` +
      `    cloudinitFiles:\n      - name: /user-data\n        contents: ${JSON.stringify(userData)}\n` +
      "    drives: [{ name: os, media: disk, disksize: 1GiB }]\n    nics: [{ vnet: kill-net }]\n",
  );
  return `vnets:\n  - { name: kill-net, network: 10.61.0.0/24 }\nvms:\n${vms.join("")}`;
}

/** mulberry32: a small seeded generator, so a schedule can be run again. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Command = "up" | "destroy";
/** The latest share of its progress at which a run is killed. */
const LAST_SHARE = 0.9;
/**
 * Where a run is killed: as soon as its engine has started a provider process (before that process's first
 * call), `ms` after its start, or at a `share` (0 to 1) of its progress, there or inside the next checkpoint write.
 * An up's progress is the rows it has made on the platform (they come one by one over the run); a destroy's is its
 * engine steps, as its checkpoints record them: each delete begun and each ended (its platform rows go in one burst
 * at the end, once the engine has deleted the VMs' parts from the state: a share of rows would bunch there).
 */
type At = { kind: "provider start" } | { kind: "delay"; ms: number } | { kind: "share"; share: number; inWrite: boolean };
interface KillPoint {
  command: Command;
  index: number;
  at: At;
}

/**
 * The first point at a provider process's start; in the full form the second at 0.3-3 s (the CLI and engine
 * starting); the others one in each equal share of the progress, so they spread over the run, every other one
 * inside a write.
 */
function schedule(command: Command, random: () => number): KillPoint[] {
  const early: At[] = [{ kind: "provider start" }, ...(full ? [{ kind: "delay" as const, ms: Math.floor(300 + random() * 2_700) }] : [])];
  const spread = POINTS - early.length;
  // Short of the whole: once the last rows are made, only the last steps and writes are left before the CLI exits
  // (it no longer reads the stack back, env/summary-from-events.ts), too short a time to be sure to catch a write.
  const byShare = Array.from(
    { length: spread },
    (_, j): At => ({ kind: "share", share: (LAST_SHARE * (j + random())) / spread, inWrite: j % 2 === 0 }),
  );
  return [...early, ...byShare].map((at, index) => ({ command, index, at }));
}

const described = (at: At) =>
  at.kind === "provider start"
    ? "when a provider process starts"
    : at.kind === "delay"
      ? `${at.ms} ms after the start`
      : `at ${Math.round(at.share * 100)}% of its progress${at.inWrite ? ", inside a write" : ""}`;

let emulator: RunningEmulator;
let repo: string;
let env: NodeJS.ProcessEnv;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function api<T>(apiPath: string): Promise<T> {
  return got(`${emulator.url}/api${apiPath}`, {
    headers: { authorization: `Basic ${Buffer.from(`${emulator.adminUser}:${emulator.adminPassword}`).toString("base64")}` },
    https: { certificateAuthority: emulator.caCert },
    retry: { limit: 0 },
  }).json<T>();
}

interface Rows {
  vms: { $key: number; name: string; machine: number; status: string }[];
  drives: { $key: number; machine: number; name: string }[];
  nics: { $key: number; machine: number; vnet: number }[];
  vnets: { $key: number; name: string }[];
}
const platformRows = async (): Promise<Rows> => {
  const [vms, drives, nics, vnets] = await Promise.all([
    api<Rows["vms"]>("/v4/vms?fields=$key,name,machine,machine%23status%23status%20as%20status&filter=is_snapshot%20eq%20false"),
    api<Rows["drives"]>("/v4/machine_drives?fields=$key,machine,name"),
    api<Rows["nics"]>("/v4/machine_nics?fields=$key,machine,vnet"),
    api<Rows["vnets"]>("/v4/vnets?fields=$key,name&filter=name%20eq%20'kill-net'"),
  ]);
  return { vms, drives, nics, vnets };
};
/** The rows an up has made so far (a destroy removes them): every row of the four tables, and each running VM. */
const rowsMade = (r: Rows) =>
  r.vms.length + r.vms.filter((vm) => vm.status === "running").length + r.drives.length + r.nics.length + r.vnets.length;

const stateDir = () => path.join(repo, ".vplatform", "state", ".pulumi");
/**
 * The checkpoint write caught in progress, by the file being written: a checkpoint's sidecar (`<file>.attrs`, empty
 * while written: where a backend writes sidecars, a kill there left the issue's unloadable state) or a state
 * file's temporary file (fileblob's `<file>.<hex>.tmp`, renamed into place once whole); undefined when none is.
 * `before`: such files an earlier kill left, no write of this run.
 */
function writeInProgress(before: ReadonlySet<string> = new Set()): { file: string; sidecar: boolean } | undefined {
  let files: string[];
  try {
    files = fs.readdirSync(stateDir(), { recursive: true, encoding: "utf8" }).filter((f) => !before.has(f));
  } catch {
    return undefined; // no state yet
  }
  const empty = (f: string) => {
    try {
      return fs.statSync(path.join(stateDir(), f)).size === 0;
    } catch {
      return false;
    }
  };
  const sidecar = files.find((f) => f.endsWith(".json.attrs") && empty(f));
  if (sidecar) return { file: sidecar, sidecar: true };
  const tmp = files.find((f) => f.endsWith(".tmp"));
  return tmp ? { file: tmp, sidecar: false } : undefined;
}
/** Whether the backend writes sidecars: then the kill waits for a sidecar's write, the most fragile moment. */
const writesSidecars = () => {
  try {
    return fs.readdirSync(stateDir(), { recursive: true, encoding: "utf8" }).some((f) => f.endsWith(".attrs"));
  } catch {
    return false;
  }
};

type StateResource = { type: string; id?: string };
const stateFile = () => path.join(stateDir(), "stacks", "vplatform-env", `${STACK}.json`);
function stateOf(): { resources: StateResource[]; pending: unknown[] } {
  const latest = JSON.parse(fs.readFileSync(stateFile(), "utf8")).checkpoint.latest ?? {};
  return { resources: latest.resources ?? [], pending: latest.pending_operations ?? [] };
}
/**
 * A run's engine steps so far, as its checkpoints record them: each resource operation begun (a pending operation)
 * and each ended (a resource more or fewer than at the start): 2 per resource made or deleted. The state file is
 * replaced whole (written aside, then renamed), so a read sees one checkpoint; it is parsed again only when changed.
 */
function engineSteps(): { atStart: number; steps: () => number } {
  const counts = () => {
    try {
      const { resources, pending } = stateOf();
      return { resources: resources.length, pending: pending.length };
    } catch {
      return { resources: 0, pending: 0 }; // no state yet
    }
  };
  const start = counts().resources;
  let seen = "";
  let steps = 0;
  const read = () => {
    let stamp = "";
    try {
      const stat = fs.statSync(stateFile());
      stamp = `${stat.mtimeMs} ${stat.size} ${stat.ino}`;
    } catch {
      return steps;
    }
    if (stamp !== seen) {
      seen = stamp;
      const now = counts();
      steps = Math.max(steps, 2 * Math.abs(now.resources - start) + now.pending);
    }
    return steps;
  };
  return { atStart: start, steps: read };
}
const idsOf = (type: string) =>
  stateOf()
    .resources.filter((r) => r.type.endsWith(`:${type}`))
    .map((r) => String(r.id))
    .sort();
const keys = (rows: { $key: number }[]) => rows.map((r) => String(r.$key)).sort();

const vplatform = (command: Command): Promise<Run> =>
  runProgram(process.execPath, [cli, "env", command, FILE, "--stack", STACK], { cwd: repo, env: { ...env, [RUN_MARKER]: "recovery" } });

interface Killed {
  point: KillPoint;
  /** False when the run ended before its point came. */
  killed: boolean;
  atMs: number;
  rowsAtKill: number;
  /** The engine steps its checkpoints recorded when killed, of `stepsWhole` (a destroy: 2 per resource of its start). */
  stepsAtKill: number;
  stepsWhole?: number;
  /** The file of the checkpoint write the kill came inside, if any. */
  insideWrite?: string;
  output: string;
  marker: string;
}

/** Starts the command in a process group of its own and SIGKILLs the whole group at the point. */
async function runKilledAt(point: KillPoint): Promise<Killed> {
  const marker = `killed-${point.command}-${point.index}-${process.pid}`;
  const leftBefore = new Set<string>();
  for (let seen = writeInProgress(); seen; seen = writeInProgress(leftBefore)) leftBefore.add(seen.file);
  const started = Date.now();
  const child: ChildProcess = spawn(process.execPath, [cli, "env", point.command, FILE, "--stack", STACK], {
    cwd: repo,
    env: { ...env, [RUN_MARKER]: marker },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  let ended = false;
  /** A signal to the run's process group; false once the group is gone. */
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
      return true;
    } catch {
      return false;
    }
  };
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  void exited.then(() => (ended = true));
  const steps = engineSteps();
  const stepsWhole = point.command === "destroy" ? 2 * steps.atStart : undefined;
  const rowsDone = async () => (point.command === "up" ? rowsMade(await platformRows()) : ROWS - rowsMade(await platformRows()));
  /** Whether the run's progress reached a share: rows made (up), engine steps (destroy). */
  const reached = async (share: number) =>
    stepsWhole === undefined ? (await rowsDone()) >= Math.floor(share * ROWS) : steps.steps() >= Math.floor(share * stepsWhole);

  const { at } = point;
  if (at.kind === "delay") await Promise.race([sleep(at.ms), exited]);
  else if (at.kind === "provider start")
    while (!ended && !processesOfRun(marker).some((p) => /dynamic-provider/.test(p.cmd))) await sleep(10);
  else while (!ended && !(await reached(at.share))) await sleep(stepsWhole === undefined ? 40 : 10);
  let insideWrite: Killed["insideWrite"];
  if (at.kind === "share" && at.inWrite) {
    // Freeze the run and look; let it go on for a few ms unless the kill comes inside the write seen.
    const random = seeded(SEED * 1000 + point.index);
    for (const deadline = Date.now() + 15_000; !ended && Date.now() < deadline; ) {
      if (!signal("SIGSTOP")) break;
      const seen = writeInProgress(leftBefore);
      if (seen && (seen.sidecar || !writesSidecars())) {
        insideWrite = seen.file;
        break;
      }
      signal("SIGCONT");
      await sleep(1 + random() * 4);
    }
  }
  if (ended || !signal("SIGKILL"))
    return { point, killed: false, atMs: Date.now() - started, rowsAtKill: -1, stepsAtKill: -1, output, marker };
  const atMs = Date.now() - started;
  await exited;
  const rowsAtKill = await rowsDone();
  return { point, killed: true, atMs, rowsAtKill, stepsAtKill: steps.steps(), stepsWhole, insideWrite, output, marker };
}

/** One plain run, and when the dead run's lock refuses it, the `pulumi cancel` its message prints and the run again. */
async function recover(command: Command): Promise<{ run: Run; cancelled: boolean; ms: number }> {
  const started = Date.now();
  const first = await vplatform(command);
  const cancel = first.code === 0 ? undefined : /`((?:PULUMI_BACKEND_URL='[^']*' )?pulumi cancel --yes --stack \S+)`/.exec(first.stderr);
  if (!cancel) return { run: first, cancelled: false, ms: Date.now() - started };
  const cancelled = await runProgram("sh", ["-c", cancel[1]], { cwd: repo, env });
  expect({ command: cancel[1], ...cancelled }).toMatchObject({ code: 0 });
  return { run: await vplatform(command), cancelled: true, ms: Date.now() - started };
}

/** After an up: every declared row once, each VM running with its drive and NIC, and the state naming exactly them. */
async function expectWhole(): Promise<void> {
  const rows = await platformRows();
  expect(rows.vms.map((vm) => vm.name).sort()).toEqual(Array.from({ length: VMS }, (_, i) => vmName(i)));
  expect(rows.vms.filter((vm) => vm.status !== "running")).toEqual([]);
  expect(rows.vnets.map((n) => n.name)).toEqual(["kill-net"]);
  const machines = rows.vms.map((vm) => vm.machine).sort();
  expect(rows.drives.map((d) => d.machine).sort()).toEqual(machines);
  expect(rows.nics.map((n) => n.machine).sort()).toEqual(machines);
  expect(rows.nics.filter((n) => n.vnet !== rows.vnets[0].$key)).toEqual([]);
  expect(idsOf("VirtualMachine")).toEqual(keys(rows.vms));
  expect(idsOf("Drive")).toEqual(keys(rows.drives));
  expect(idsOf("Nic")).toEqual(keys(rows.nics));
  expect(idsOf("Vnet")).toEqual(keys(rows.vnets));
  expect(stateOf().pending).toEqual([]);
}

/** After a destroy: no row left on the platform, none in the state. */
async function expectGone(): Promise<void> {
  expect(await platformRows()).toEqual({ vms: [], drives: [], nics: [], vnets: [] });
  expect(stateOf().resources.filter((r) => !r.type.startsWith("pulumi:"))).toEqual([]);
  expect(stateOf().pending).toEqual([]);
}

/** The processes of the killed run alive 10 s after the kill (the provider processes watch their engine); then ended, so none leaks into the next point. */
async function leftAfterGrace(killed: Killed, killedAt: number): Promise<{ pid: number; cmd: string }[]> {
  await sleep(Math.max(0, killedAt + PROCESS_GRACE_MS - Date.now()));
  const left = processesOfRun(killed.marker);
  for (const p of left) process.kill(p.pid, "SIGKILL");
  return left;
}

const log: string[] = [];
/** A point's outcome, printed as it comes (a full run takes long) and again in the summary at the end. */
const record = (line: string) => {
  log.push(line);
  process.stdout.write(`${line}\n`);
};

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, timeScale: 0.01, quiet: true, rateLimitPerHour: 1_000_000 });
  repo = fs.mkdtempSync(path.join(os.tmpdir(), "killed-runs-"));
  fs.mkdirSync(path.join(repo, "environments"));
  fs.writeFileSync(path.join(repo, FILE), environmentFile());
  const kept = ["PATH", "HOME", "VPLATFORM_PULUMI_ROOT", "NODE_OPTIONS"];
  env = {
    ...Object.fromEntries(kept.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]])),
    PULUMI_HOME: path.join(repo, ".pulumi-home"),
    VPLATFORM_ENDPOINT: emulator.url,
    VPLATFORM_API_KEY: emulator.apiKey,
    VPLATFORM_CA_CERT: emulator.caCert,
  };
});
afterAll(async () => {
  process.stdout.write(`killed runs (seed ${SEED}):\n${log.join("\n")}\n`);
  await emulator?.close();
  if (repo && !process.env.VPLATFORM_KEEP_E2E) fs.rmSync(repo, { recursive: true, force: true });
});

describe(`SIGKILL of the whole process group of a 20-VM env up and destroy at ${POINTS} seeded points each (seed ${SEED})`, () => {
  const random = seeded(SEED);
  const ups = schedule("up", random);
  const destroys = schedule("destroy", random);

  test.each(ups.map((up, i) => [i, up, destroys[i]] as const))(
    "point %i: the killed up, then one up, converge (each row once); the killed destroy, then one destroy, leave nothing; no process of a killed run 10 s later",
    async (_i, up, destroy) => {
      for (const point of [up, destroy]) {
        const killed = await runKilledAt(point);
        const killedAt = Date.now();
        const leftover = leftAfterGrace(killed, killedAt);
        const recovery = await recover(point.command);
        const left = await leftover;
        record(
          `${point.command} #${point.index}: ${described(point.at)} -> ${killed.killed ? `killed at ${killed.atMs} ms, ${killed.rowsAtKill} rows done, ${killed.stepsAtKill}${killed.stepsWhole ? ` of ${killed.stepsWhole}` : ""} engine steps${killed.insideWrite ? `, inside the write of ${path.basename(killed.insideWrite)}` : ""}` : "ended before its point"}` +
            `; recovery ${recovery.cancelled ? "after pulumi cancel " : ""}exit ${recovery.run.code} in ${recovery.ms} ms` +
            `; ${left.length ? `left alive: ${left.map((p) => p.cmd.slice(0, 80)).join(", ")}` : "no process left"}`,
        );
        // On failure the recovery's own words show (and the killed run's last ones).
        const { code, stderr } = recovery.run;
        expect({ code, said: code ? `${stderr.slice(-3000)}\n-- the killed run said:\n${killed.output.slice(-1500)}` : "" }).toEqual({
          code: 0,
          said: "",
        });
        await (point.command === "up" ? expectWhole() : expectGone());
        expect(left).toEqual([]);
        expect(killed.killed).toBe(true);
      }
    },
    900_000,
  );
});

describe("the engine alone killed under the CLI (the OOM killer picks the biggest process)", () => {
  // CI: preview (the engine's death once left an orphan preview spinning for 9 minutes); the full form: up as well.
  const commands: ("preview" | "up")[] = full ? ["preview", "up"] : ["preview"];
  test.each(commands)(
    "vplatform env %s exits within seconds, its report saying the engine was killed and what to do (not the Automation API's command result)",
    async (command) => {
      const marker = `engine-only-${command}-${process.pid}`;
      const child = spawn(process.execPath, [cli, "env", command, FILE, "--stack", STACK, "--json"], {
        cwd: repo,
        env: { ...env, [RUN_MARKER]: marker },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
      child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
      let engine: { pid: number } | undefined;
      const engineCommand = new RegExp(`\\bpulumi ${command}\\b`);
      while (!engine) {
        const processes = processesOfRun(marker);
        if (processes.some((p) => /dynamic-provider/.test(p.cmd))) engine = processes.find((p) => engineCommand.test(p.cmd));
        await sleep(20);
      }
      process.kill(engine.pid, "SIGKILL");
      const killedAt = Date.now();
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<string>((resolve) => (timer = setTimeout(() => resolve("still running"), CLI_EXIT_MS)));
      const code = await Promise.race([exited, late]);
      clearTimeout(timer); // not what keeps jest waiting at the end
      const exitedAfterMs = Date.now() - killedAt;
      if (code === "still running") for (const p of processesOfRun(marker)) process.kill(p.pid, "SIGKILL");
      record(`the engine alone killed under env ${command}: the CLI exited ${code} ${exitedAfterMs} ms after`);
      expect(code).toBe(1);
      // One line naming what died (after the engine's last progress, which it left unended).
      expect(stderr.match(/error: the engine \(pulumi\) was killed \(SIGKILL\) before it finished[^\n]*\n/g)).toHaveLength(1);
      const report = JSON.parse(stdout);
      expect(report).toMatchObject({ command, result: "failed", exitCode: 1 });
      expect(report.plan.errors).toEqual([expect.stringContaining("the engine (pulumi) was killed (SIGKILL) before it finished")]);
      expect(JSON.stringify(report)).not.toMatch(/code: |stdout: |err\?: /);
    },
    300_000,
  );
});
