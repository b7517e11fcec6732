// The OpenTofu side of the fixed-cost comparison (issue 32): the bench's lab applied by OpenTofu with the maker's
// Terraform provider against the same emulator, timed step by step with the emulator's request count, so the ratio
// to this provider is measured in one run. Runs only where scripts/build-opentofu.sh has built both binaries.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import type { RunningEmulator } from "../../emulator";
import { requestCounter } from "../lab";
import { TOFU_LAB_DEVIATIONS, tofuCliConfig, tofuLabConfig } from "./opentofuConfig";

/** Terraform's and OpenTofu's default -parallelism, passed explicitly to every step. */
export const OPENTOFU_PARALLELISM = 10;

/** The readmeLab's data drive size in the bench (bench:dataGiB before the grow). */
const DATA_GIB = 2;

export interface OpenTofuStep {
  /** Wall-clock seconds of the `tofu` process. */
  seconds: number;
  /** Requests the emulator counted while it ran. */
  requests: number;
}

export interface OpenTofuMeasured {
  tofuVersion: string;
  /** The maker's provider's release tag the binary was built from. */
  providerVersion: string;
  vms: number;
  parallelism: number;
  /** How the lab differs from readmeLab's, and whether a plan proposed changes. */
  note: string;
  /** `tofu apply -auto-approve`: creates the lab. */
  apply: OpenTofuStep;
  /** `tofu plan -refresh=false`: the state against the configuration, no request. */
  planNoRefresh: OpenTofuStep;
  /** `tofu plan`: refreshes every resource first. */
  plan: OpenTofuStep;
}

export type OpenTofuSide = OpenTofuMeasured | { skipped: string };

/** Where scripts/build-opentofu.sh puts the binaries (its $VPLATFORM_CACHE, as scripts/env.sh defines it). */
export function openTofuBinaries(env: NodeJS.ProcessEnv = process.env) {
  const cache = env.VPLATFORM_CACHE ?? path.join(env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "vplatform");
  const providerDir = path.join(cache, "terraform-provider-vergeio");
  return { tofu: path.join(cache, "opentofu", "tofu"), providerDir, provider: path.join(providerDir, "terraform-provider-vergeio") };
}

/** Why the side cannot run (the missing binaries and the command that builds them), or undefined when it can. */
export function missingBinaries(binaries: ReturnType<typeof openTofuBinaries>, exists = fs.existsSync): string | undefined {
  const missing = [binaries.tofu, binaries.provider].filter((file) => !exists(file));
  if (missing.length === 0) return undefined;
  return (
    `OpenTofu side skipped: ${missing.join(" and ")} not built; build with ` +
    "`VERGEIO_PROVIDER_SRC=<a clone of github.com/verge-io/terraform-provider-vergeio> bash scripts/build-opentofu.sh`"
  );
}

/** The note of a run: the lab's deviations from readmeLab, then any plan that proposed changes after the apply. */
export function openTofuNote(changedPlans: string[]): string {
  const changes = changedPlans.map((step) => `${step} proposed changes right after the apply (the figures include them)`);
  return [`the lab as bench/readmeLab, except: ${TOFU_LAB_DEVIATIONS.join("; ")}`, ...changes].join(". ");
}

/**
 * Applies the lab of `vms` VMs with OpenTofu in `workDir` against `emulator`, then plans without and with refresh,
 * and removes the lab afterwards (not timed; a failed step throws and leaves the lab to the emulator's owner). The
 * emulator's request counter is reset before each step.
 */
export async function openTofuSide(opts: { emulator: RunningEmulator; vms: number; workDir: string }): Promise<OpenTofuSide> {
  const binaries = openTofuBinaries();
  const skipped = missingBinaries(binaries);
  if (skipped) return { skipped };
  const { emulator, vms, workDir } = opts;
  fs.mkdirSync(workDir, { recursive: true });
  fs.writeFileSync(path.join(workDir, "main.tf"), tofuLabConfig({ vms, dataGiB: DATA_GIB }));
  const cliConfig = path.join(workDir, "tofu.rc");
  fs.writeFileSync(cliConfig, tofuCliConfig(binaries.providerDir));
  const env = {
    ...process.env,
    TF_CLI_CONFIG_FILE: cliConfig,
    TF_IN_AUTOMATION: "1",
    TF_INPUT: "0",
    TF_VAR_host: emulator.url,
    TF_VAR_password: emulator.adminPassword,
  };
  const tofu = (args: string[]) => runTofu(binaries.tofu, args, workDir, env);
  const counter = requestCounter(emulator);
  const changedPlans: string[] = [];
  const step = async (name: string, args: string[]): Promise<OpenTofuStep> => {
    await counter("DELETE");
    const t0 = performance.now();
    const exitCode = await tofu(args);
    const seconds = (performance.now() - t0) / 1000;
    if (exitCode === 2) changedPlans.push(name); // -detailed-exitcode: the plan has changes
    return { seconds, requests: (await counter("GET")).total };
  };
  const parallelism = `-parallelism=${OPENTOFU_PARALLELISM}`;
  const { terraform_version: tofuVersion } = JSON.parse(await tofuOutput(binaries.tofu, ["version", "-json"], workDir, env));
  const apply = await step("apply", ["apply", "-auto-approve", parallelism]);
  const planNoRefresh = await step("plan -refresh=false", ["plan", "-refresh=false", "-detailed-exitcode", parallelism]);
  const plan = await step("plan", ["plan", "-detailed-exitcode", parallelism]);
  await tofu(["destroy", "-auto-approve", parallelism]);
  return {
    tofuVersion,
    providerVersion: fs.readFileSync(path.join(binaries.providerDir, "VERSION"), "utf8").trim(),
    vms,
    parallelism: OPENTOFU_PARALLELISM,
    note: openTofuNote(changedPlans),
    apply,
    planNoRefresh,
    plan,
  };
}

const execFileAsync = promisify(execFile);

/** Runs tofu without blocking the event loop (an emulator embedded in this process answers from it). */
async function tofuOutput(tofu: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  const { stdout } = await execFileAsync(tofu, [...args, "-no-color"], { cwd, env, maxBuffer: 256 * 1024 * 1024 });
  return stdout;
}

/** Runs one step; returns its exit code (0, or 2 for a plan with changes); any other exit throws with tofu's own words. */
async function runTofu(tofu: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<number> {
  try {
    await tofuOutput(tofu, args, cwd, env);
    return 0;
  } catch (err) {
    const failed = err as { code?: number; stdout?: string; stderr?: string };
    if (failed.code === 2 && args.includes("-detailed-exitcode")) return 2;
    const said = `${failed.stderr ?? ""}\n${failed.stdout ?? ""}`.trim().split("\n").slice(-40).join("\n");
    throw new Error(`tofu ${args.join(" ")} in ${cwd} failed (exit ${failed.code}):\n${said}`);
  }
}
