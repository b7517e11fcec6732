// The fixed-cost scenario (`npm run bench -- --fixed-cost`): what a command that sends few or no requests
// costs in wall time, split phase by phase (timeline.ts), for the 10- and 30-VM labs through each door — a
// TypeScript program (`pulumi preview`, `pulumi refresh`), a YAML environment (`vplatform env preview|refresh`)
// and a Pulumi YAML program on the resource plugin — each command run as a user runs it, for this checkout
// and for an earlier revision (a checkout of it, built in the cache) in the same run, interleaved command by
// command so both see the same load; and OpenTofu with the maker's provider on the same lab when its binaries
// are on the machine (scripts/build-opentofu.sh).
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { stringify } from "yaml";
import { type RunningEmulator, startEmulator } from "../../emulator";
import { createLocalStack, engineEnv, findRepoRoot, pulumiRoot } from "../../env/local-stack";
import { renderRows } from "../figures";
import { labEnvironmentSource, requestCounter } from "../lab";
import { measureCommand } from "./command";
import { openTofuSide } from "./opentofu";
import { PHASES, PHASE_MEANINGS, type Split, splitTimeline } from "./timeline";

/** The revision the issue measured against (main before the fixed-cost work). */
export const BASELINE_REVISION = "96f6022";
export const DOORS = ["typescript", "yaml", "plugin"] as const;
export type Door = (typeof DOORS)[number];
type Op = "preview" | "refresh";

/** One built checkout: its root (with node_modules/vplatform as a user's install has it). */
interface Revision {
  name: string;
  root: string;
}

export interface FixedCostRow {
  revision: string;
  door: Door;
  vms: number;
  op: Op;
  /** The best of the repeats, and its split. */
  split: Split;
  requests: number;
}

/**
 * A checkout of `rev` in the cache, built with the same npm cache (offline) and the same engine; undefined
 * (with the reason printed) when the repository has no such commit (a shallow clone) or it does not build.
 */
function checkoutOf(rev: string): Revision | undefined {
  const root = findRepoRoot();
  const cache = process.env.VPLATFORM_CACHE ?? path.join(os.homedir(), ".cache", "vplatform");
  const dir = path.join(cache, `revision-${rev}`);
  const run = (cmd: string, args: string[], cwd: string) => execFileSync(cmd, args, { cwd, stdio: "pipe", env: process.env });
  try {
    if (!fs.existsSync(path.join(dir, "node_modules", "vplatform", "dist", "env", "cli.js"))) {
      console.log(`building revision ${rev} in ${dir} (once)...`);
      fs.rmSync(dir, { recursive: true, force: true });
      run("git", ["worktree", "prune"], root);
      run("git", ["worktree", "add", "--detach", dir, rev], root);
      run("npm", ["ci", "--offline", "--no-audit", "--no-fund"], dir);
      run("npm", ["run", "--silent", "build"], dir);
    }
    return { name: rev, root: dir };
  } catch (err) {
    console.log(`(revision ${rev} not measured: ${String((err as Error).message).split("\n")[0]})`);
    return undefined;
  }
}

/** The same lab as a Pulumi YAML program on the resource plugin (its directory named in `plugins:`). */
function pluginProject(vms: number, pluginDir: string): string {
  const lines = [
    "name: fixed-cost-plugin",
    "runtime: yaml",
    "plugins:",
    "  providers:",
    "    - name: vplatform",
    `      path: ${pluginDir}`,
    "resources:",
    "  net:",
    "    type: vplatform:index:Vnet",
    "    properties: { name: plugin-net, network: 10.93.0.0/16 }",
  ];
  for (let i = 0; i < vms; i++) {
    lines.push(
      `  vm${i}:`,
      "    type: vplatform:index:VirtualMachine",
      `    properties: { name: plugin-${i}, cpuCores: 1, ram: 512, powerState: running }`,
      ...["os", "data"].map((drive, d) =>
        [
          `  vm${i}${drive}:`,
          "    type: vplatform:index:Drive",
          `    properties: { machine: "\${vm${i}.machineKey}", name: ${drive}, media: disk, disksize: ${(d + 1) * 1024 ** 3}, preferredTier: 3 }`,
        ].join("\n"),
      ),
      `  vm${i}eth0:`,
      "    type: vplatform:index:Nic",
      `    properties: { machine: "\${vm${i}.machineKey}", vnet: "\${net.id}" }`,
    );
  }
  return `${lines.join("\n")}\n`;
}

/** A lab through one door of one revision, made once (`up`, not measured), then measured command by command. */
interface Lab {
  revision: string;
  door: Door;
  emu: RunningEmulator;
  command: (op: Op) => { command: string; args: string[]; cwd: string; env: NodeJS.ProcessEnv };
}

/** The three doors' labs of one revision, each on an emulator of its own (its cluster fits 30 running VMs, not 90). */
async function makeLabs(revision: Revision, startEmu: () => Promise<RunningEmulator>, vms: number, work: string): Promise<Lab[]> {
  const engineBin = path.join(pulumiRoot(), "bin");
  const baseEnv = (stateDir: string): NodeJS.ProcessEnv => ({
    ...process.env,
    ...engineEnv(stateDir),
    PULUMI_HOME: process.env.PULUMI_HOME ?? path.join(findRepoRoot(), ".pulumi", "home"),
    VPLATFORM_PULUMI_ROOT: pulumiRoot(),
    PATH: `${engineBin}${path.delimiter}${process.env.PATH}`,
  });
  const pulumiLab = async (door: Door, projectDir: string, config: Record<string, string>): Promise<Lab> => {
    const emu = await startEmu();
    const connection = { endpoint: emu.url, apiKey: emu.apiKey, caCert: emu.caCert };
    const stateDir = path.join(projectDir, "..", `${door}-state`);
    const stack = await createLocalStack({ stackName: door, stateDir, connection, workDir: projectDir, config });
    await stack.up({ color: "never" });
    return {
      revision: revision.name,
      door,
      emu,
      command: (op) => ({
        command: "pulumi",
        args:
          op === "preview"
            ? ["preview", "--stack", door, "--non-interactive"]
            : ["refresh", "--yes", "--skip-preview", "--stack", door, "--non-interactive"],
        cwd: projectDir,
        env: baseEnv(stateDir),
      }),
    };
  };
  const budget = { "vplatform:requestBudget": "1000000000" };

  const tsProject = path.join(work, "typescript");
  fs.cpSync(path.join(revision.root, "bench", "readmeLab"), tsProject, { recursive: true });
  const typescript = await pulumiLab("typescript", tsProject, { ...budget, "bench:vms": String(vms), "bench:dataGiB": "2" });

  const pluginDir = path.join(work, "plugin");
  fs.mkdirSync(pluginDir);
  fs.writeFileSync(path.join(pluginDir, "Pulumi.yaml"), pluginProject(vms, path.join(revision.root, "plugin")));
  const plugin = await pulumiLab("plugin", pluginDir, budget);

  const envDir = path.join(work, "yaml");
  fs.mkdirSync(envDir);
  fs.writeFileSync(path.join(envDir, "lab.yaml"), stringify(labEnvironmentSource({ vms, dataGiB: 2, prefix: "env" })));
  const emu = await startEmu();
  const env = {
    ...baseEnv(path.join(envDir, "state")),
    VPLATFORM_ENDPOINT: emu.url,
    VPLATFORM_API_KEY: emu.apiKey,
    VPLATFORM_CA_CERT: emu.caCert,
    VPLATFORM_REQUEST_BUDGET: "1000000000",
  };
  const cli = path.join(revision.root, "node_modules", "vplatform", "dist", "env", "cli.js");
  const envCommand = (op: "up" | Op) => ({
    command: process.execPath,
    args: [cli, "env", op, "lab.yaml", "--stack", "lab"],
    cwd: envDir,
    env,
  });
  // Not execFileSync: the emulator answers from this process's event loop.
  const up = envCommand("up");
  const made = await measureCommand(up.command, up.args, { ...up, runsProgram: true });
  if (made.exitCode !== 0) throw new Error(`${revision.name}: vplatform env up failed:\n${made.output.slice(-2000)}`);
  const yaml: Lab = { revision: revision.name, door: "yaml", emu, command: envCommand };
  return [typescript, yaml, plugin];
}

export interface FixedCostOptions {
  sizes: number[];
  repeats: number;
  baseline: boolean;
  markdown: boolean;
}

export async function benchFixedCost(opts: FixedCostOptions): Promise<FixedCostRow[]> {
  const revisions: Revision[] = [{ name: "this checkout", root: findRepoRoot() }];
  const baseline = opts.baseline ? checkoutOf(BASELINE_REVISION) : undefined;
  if (baseline) revisions.push(baseline);
  const rows: FixedCostRow[] = [];
  const tofu: string[][] = [];
  for (const vms of opts.sizes) {
    const emulators: RunningEmulator[] = [];
    const labs: Lab[] = [];
    const works: string[] = [];
    try {
      for (const revision of revisions) {
        fs.mkdirSync(path.join(revision.root, ".e2e-work"), { recursive: true });
        const work = fs.mkdtempSync(path.join(revision.root, ".e2e-work", "fixed-cost-"));
        works.push(work);
        console.log(`${revision.name}: making the ${vms}-VM lab through each door...`);
        // Each revision's own emulators: the platform as that revision emulated it.
        labs.push(...(await makeLabs(revision, () => startEmulatorOf(revision, emulators), vms, work)));
      }
      for (const door of DOORS)
        for (const op of ["preview", "refresh"] as const) {
          const best = new Map<string, FixedCostRow>();
          for (let repeat = 0; repeat < opts.repeats; repeat++)
            for (const lab of labs.filter((l) => l.door === door)) {
              const { command, args, cwd, env } = lab.command(op);
              const counter = requestCounter(lab.emu);
              await counter("DELETE");
              const run = await measureCommand(command, args, { cwd, env, runsProgram: op === "preview" });
              const requests = (await counter("GET")).total;
              if (run.exitCode !== 0) throw new Error(`${lab.revision} ${door} ${op} failed:\n${run.output.slice(-2000)}`);
              const split = splitTimeline(run.timeline);
              const previous = best.get(lab.revision);
              if (!previous || split.total < previous.split.total)
                best.set(lab.revision, { revision: lab.revision, door, vms, op, split, requests });
            }
          rows.push(...best.values());
          printRows([...best.values()], opts.markdown);
        }
      const side = await openTofuSide({ emulator: emulators[0], vms, workDir: works[0] });
      tofu.push(
        "skipped" in side
          ? [String(vms), side.skipped, "", ""]
          : [
              String(vms),
              `${side.planNoRefresh.seconds.toFixed(2)} s, ${side.planNoRefresh.requests} requests`,
              `${side.plan.seconds.toFixed(2)} s, ${side.plan.requests} requests`,
              side.note,
            ],
      );
    } finally {
      for (const emu of emulators) await emu.close();
      for (const work of works) fs.rmSync(work, { recursive: true, force: true });
    }
  }
  report(rows, tofu, opts.markdown);
  return rows;
}

/** This checkout's emulator, or an earlier revision's from its own build. */
async function startEmulatorOf(revision: Revision, started: RunningEmulator[]): Promise<RunningEmulator> {
  const own = path.join(revision.root, "dist", "emulator");
  const start: typeof startEmulator = revision.root === findRepoRoot() ? startEmulator : require(own).startEmulator;
  const emu = await start({ port: 0, timeScale: 0.01, quiet: true, rateLimitPerHour: 1_000_000_000 });
  started.push(emu);
  return emu;
}

const seconds = (ms: number) => (ms / 1000).toFixed(2);

function printRows(rows: FixedCostRow[], markdown: boolean): void {
  const header = ["VMs", "door", "command", "revision", "total s", "requests", ...PHASES];
  const body = rows.map((r) => [
    String(r.vms),
    r.door,
    r.op,
    r.revision,
    seconds(r.split.total),
    String(r.requests),
    ...PHASES.map((p) => seconds(r.split[p])),
  ]);
  for (const line of renderRows([header, ...body], markdown)) console.log(line);
}

function report(rows: FixedCostRow[], tofu: string[][], markdown: boolean): void {
  console.log("\nThe fixed cost of a command (best of the repeats; seconds):\n");
  printRows(rows, markdown);
  const ratios = rows
    .filter((r) => r.revision === "this checkout")
    .map((now) => {
      const before = rows.find((b) => b.revision !== now.revision && b.door === now.door && b.vms === now.vms && b.op === now.op);
      return before
        ? [
            String(now.vms),
            now.door,
            now.op,
            seconds(before.split.total),
            seconds(now.split.total),
            (now.split.total / before.split.total).toFixed(2),
          ]
        : undefined;
    })
    .filter((r): r is string[] => r !== undefined);
  if (ratios.length) {
    console.log(`\nThis checkout against ${BASELINE_REVISION}, same run:\n`);
    for (const line of renderRows([["VMs", "door", "command", `${BASELINE_REVISION} s`, "now s", "ratio"], ...ratios], markdown))
      console.log(line);
  }
  console.log("\nOpenTofu with the maker's provider, same lab, same emulator:\n");
  for (const line of renderRows([["VMs", "plan -refresh=false", "plan", "note"], ...tofu], markdown)) console.log(line);
  console.log("\nThe phases:");
  for (const phase of PHASES) console.log(`  ${phase}: ${PHASE_MEANINGS[phase]}`);
}
