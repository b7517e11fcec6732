// A team's repository as the end-to-end tests of the GitOps path see it: a
// temporary directory outside this checkout with environment files, this
// package linked in, and the commands a pipeline runs (`vplatform env ...`,
// the stock `pulumi ...`), each with only the environment a CI job gives it.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { RunningEmulator } from "../../emulator";
import { findRepoRoot, pulumiRoot } from "../../env/local-stack";

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

export interface TeamRepo {
  dir: string;
  /** `vplatform env <args>` (the compiled CLI). */
  vplatform(...args: string[]): Promise<Run>;
  /** The stock `pulumi <args> --non-interactive`. */
  pulumi(...args: string[]): Promise<Run>;
  writeEnvironment(name: string, yaml: string): void;
  remove(): void;
}

const KEPT = ["PATH", "HOME", "VPLATFORM_PULUMI_ROOT", "NODE_OPTIONS"];

/** Runs a program to its end; the exit code, never a throw. */
export function runProgram(file: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<Run> {
  return new Promise((resolve) => {
    execFile(file, args, { ...opts, maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** The password of a backend URL (`postgres://user:password@…`), "" when it has none. */
export function backendPassword(backendUrl: string): string {
  return URL.canParse(backendUrl) ? decodeURIComponent(new URL(backendUrl).password) : "";
}

/**
 * The run, failing the test when its output shows the backend's password: every command a team's pipeline runs
 * prints to a CI log, and its Markdown plan becomes a PR comment.
 */
export async function shown(password: string, command: string, running: Promise<Run>): Promise<Run> {
  const run = await running;
  if (password && (run.stdout + run.stderr).includes(password))
    throw new Error(`\`${command}\` printed the state backend's password:\n${run.stdout}\n${run.stderr}`);
  return run;
}

/**
 * The stock commands' project in `dir`: vplatform installed (here: linked) beside @pulumi/pulumi, and a
 * Pulumi.yaml whose program is the package's environment runner (docs/guides/yaml-environments.md,
 * "The same file with the stock pulumi commands").
 */
export function layStockProject(dir: string): void {
  fs.mkdirSync(path.join(dir, "node_modules", "@pulumi"), { recursive: true });
  fs.symlinkSync(findRepoRoot(), path.join(dir, "node_modules", "vplatform"), "dir");
  fs.symlinkSync(
    path.join(findRepoRoot(), "node_modules", "@pulumi", "pulumi"),
    path.join(dir, "node_modules", "@pulumi", "pulumi"),
    "dir",
  );
  fs.writeFileSync(
    path.join(dir, "Pulumi.yaml"),
    "name: team-environments\nruntime: nodejs\nmain: node_modules/vplatform/dist/env/main.js\n",
  );
}

/**
 * A team repository whose stacks live in `backendUrl` (a shared backend: PostgreSQL) and whose
 * platform is the emulator; `extraEnv` adds or overrides variables (e.g. another API key).
 */
export function createTeamRepo(emulator: RunningEmulator, backendUrl: string, extraEnv: Record<string, string> = {}): TeamRepo {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "team-repo-"));
  fs.mkdirSync(path.join(dir, "environments"));
  layStockProject(dir);
  const env: NodeJS.ProcessEnv = {
    ...Object.fromEntries(KEPT.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]])),
    PULUMI_HOME: path.join(dir, ".pulumi-home"),
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_BACKEND_URL: backendUrl,
    PULUMI_CONFIG_PASSPHRASE: "",
    VPLATFORM_ENDPOINT: emulator.url,
    VPLATFORM_API_KEY: emulator.apiKey,
    VPLATFORM_CA_CERT: emulator.caCert,
    ...extraEnv,
  };
  const cli = path.join(findRepoRoot(), "dist", "env", "cli.js");
  const password = backendPassword(backendUrl);
  return {
    dir,
    vplatform: (...args) =>
      shown(password, `vplatform env ${args.join(" ")}`, runProgram(process.execPath, [cli, "env", ...args], { cwd: dir, env })),
    pulumi: (...args) =>
      shown(
        password,
        `pulumi ${args.join(" ")}`,
        runProgram(path.join(pulumiRoot(), "bin", "pulumi"), [...args, "--non-interactive"], { cwd: dir, env }),
      ),
    writeEnvironment: (name, yaml) => fs.writeFileSync(path.join(dir, "environments", `${name}.yaml`), yaml),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
