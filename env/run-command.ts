import * as fs from "node:fs";
import * as path from "node:path";
import { type EngineEvent, type Stack, StackNotFoundError } from "@pulumi/pulumi/automation";
import { backendPasswords, chooseBackend, currentLogin, masked } from "./backend";
import { type CliArgs, type EngineCommand, isLabCommand } from "./cli-args";
import type { Environment } from "./environmentTypes.generated";
import { openEnvironmentStack } from "./environment-stack";
import { type LoadedEnvironment, loadEnvironmentSource } from "./load-environment";
import { defaultParallelism, vmsDeclared, vmsListed } from "./parallelism";
import { planFromEvents, visibleChanges, type Plan } from "./plan";
import { progressRows } from "./progress-rows";
import { renderMarkdown } from "./render-markdown";
import { renderJson, renderText, type Report } from "./render-plan";
import { EnvironmentError } from "./environment-error";
import { waitingForLock } from "./lock-wait";
import { engineErrorMessage } from "./engine-errors";
import { fileBackendDir, repairedMessage, repairFileState } from "./file-state";
import { EXIT, type Io } from "./cli-io";
import { noSuchStack } from "./stack-outputs";
import { ENGINE_PARALLEL_VARIABLE } from "../provider/reconcile/queuedStarts";
import { ENGINE_PENDING_WARNING, settlePendingCreates } from "./pending-creates";
import { runLabCommand } from "./lab-command";
import { runOutputsCommand } from "./outputs-command";

export { EXIT, type Io };

const processIo: Io = { stdout: (s) => void process.stdout.write(s), stderr: (s) => void process.stderr.write(s) };

/**
 * The report's result and exit code from what the engine did: they follow the
 * plan as its reader sees it, so updates of bookkeeping inputs alone are no drift.
 */
export function outcome(command: EngineCommand, plan: Plan): Pick<Report, "result" | "exitCode"> {
  const changes = visibleChanges(plan.changes) === "changes";
  if (command === "drift") return changes ? { result: "drift", exitCode: EXIT.drift } : { result: "no-drift", exitCode: EXIT.ok };
  if (command === "preview") return { result: changes ? "changes" : "no-changes", exitCode: EXIT.ok };
  return { result: "succeeded", exitCode: EXIT.ok };
}

/** The environment, validated before anything is sent; `undefined` when the command does not run the program. */
function environmentFor(args: CliArgs, cwd: string): LoadedEnvironment | undefined {
  const needed = args.command === "preview" || args.command === "up" || args.command === "drift";
  // refresh and destroy work from the state alone, so a broken file cannot block a teardown.
  if (!needed) return undefined;
  // A fully qualified stack (org/project/dev) selects the overlay of its last part.
  return loadEnvironmentSource(args.file, fs.readFileSync(path.resolve(cwd, args.file), "utf8"), args.stack.split("/").pop());
}

/** `--parallel`, else from the VMs of the file (validated when the command loaded it, else as listed). */
export function parallelismFor(args: CliArgs, environment: Pick<Environment, "vms" | "labs"> | undefined, cwd: string): number {
  return args.parallel ?? defaultParallelism(environment ? vmsDeclared(environment) : vmsListed(path.resolve(cwd, args.file)));
}

/** The policy pack options of the engine, paths resolved against the working directory. */
export function policyOptions(
  args: Pick<CliArgs, "policyPack" | "policyPackConfig">,
  cwd: string,
): { policyPacks?: string[]; policyPackConfigs?: string[] } {
  return {
    ...(args.policyPack ? { policyPacks: [path.resolve(cwd, args.policyPack)] } : {}),
    ...(args.policyPackConfig ? { policyPackConfigs: [path.resolve(cwd, args.policyPackConfig)] } : {}),
  };
}

async function operate(
  stack: Stack,
  args: CliArgs,
  parallel: number,
  onEvent: (e: EngineEvent) => void,
  onOutput: (s: string) => void,
  cwd: string,
): Promise<void> {
  const common = { onEvent, onOutput, parallel, color: "never" as const };
  const policy = policyOptions(args, cwd);
  switch (args.command) {
    case "preview":
      await stack.preview({ ...common, ...policy });
      return;
    case "drift":
      // A refresh-preview: reads the platform, then compares it with the file; writes nothing.
      await stack.preview({ ...common, ...policy, refresh: true });
      return;
    case "up":
      await stack.up({ ...common, ...policy, refresh: args.refresh });
      return;
    case "refresh":
      await stack.refresh(common);
      return;
    case "destroy":
      await stack.destroy(common);
      return;
  }
}

/** Runs one command; returns its exit code. The report goes to stdout, everything else to stderr. */
export async function runEnvironmentCommand(args: CliArgs, given: Io = processIo, env = process.env, cwd = process.cwd()): Promise<number> {
  const login = currentLogin(env);
  const passwords = backendPasswords(env.PULUMI_BACKEND_URL, login);
  const io: Io = { stdout: (s) => given.stdout(masked(s, passwords)), stderr: (s) => given.stderr(masked(s, passwords)) };
  let environment: LoadedEnvironment | undefined;
  try {
    environment = environmentFor(args, cwd);
  } catch (e) {
    if (e instanceof EnvironmentError) io.stderr(`${e.message}\n`);
    else if ((e as NodeJS.ErrnoException).code === "ENOENT") io.stderr(`${args.file}: no such file\n`);
    else throw e;
    return EXIT.invalid;
  }
  const backend = chooseBackend(env, cwd, login);
  const stateDir = fileBackendDir(backend.env.PULUMI_BACKEND_URL);
  if (stateDir) {
    fs.mkdirSync(stateDir, { recursive: true });
    const removed = repairFileState(stateDir);
    if (removed.length) io.stderr(`${repairedMessage(stateDir, removed)}\n`);
  }
  const { command } = args;
  if (isLabCommand(command) || command === "outputs") {
    io.stderr(`vplatform env ${command}: stack '${args.stack}' of project '${args.project}', state in ${backend.description}\n`);
    const engineEnv = { ...platformSettings(env), ...backend.env };
    return command === "outputs"
      ? runOutputsCommand(args, io, engineEnv, backend.description)
      : runLabCommand(args, io, engineEnv, env, backend.description);
  }
  const parallel = parallelismFor(args, environment?.env, cwd);
  io.stderr(
    `vplatform env ${command}: stack '${args.stack}' of project '${args.project}', state in ${backend.description}, parallelism ${parallel}\n`,
  );

  const events: EngineEvent[] = [];
  const report = (outcomeOf: Pick<Report, "result" | "exitCode">, plan: Plan): number => {
    const r: Report = { command, stack: args.stack, file: shownPath(args.file, cwd), ...outcomeOf, plan };
    io.stdout(args.json ? renderJson(r) : args.markdown ? renderMarkdown(r, environment?.env) : renderText(r));
    return r.exitCode;
  };
  // biome-ignore lint/suspicious/noImplicitAnyLet: typed by its assignment in the try below (control-flow typing)
  let opened;
  try {
    opened = await openEnvironmentStack({
      environment,
      projectName: args.project,
      stackName: args.stack,
      // The provider's hint about queued VM starts then knows the engine's parallelism and names --parallel.
      env: { ...platformSettings(env), ...backend.env, [ENGINE_PARALLEL_VARIABLE]: String(parallel) },
      // Only preview and up may start a stack: a mistyped one for destroy, refresh or drift is refused, not made.
      existing: !STARTS_A_STACK.has(command),
    });
  } catch (e) {
    if (e instanceof StackNotFoundError) {
      io.stderr(`error: ${noSuchStack(args, backend.description)}\n`);
      return EXIT.invalid;
    }
    // No engine run: the report says why (a PR comment shows stdout), not an empty plan.
    const message = engineErrorMessage(e, stateDir);
    io.stderr(`error: ${message}\n`);
    const plan = planFromEvents(events);
    return report({ result: "failed", exitCode: EXIT.error }, { ...plan, errors: [...plan.errors, message] });
  }
  const display = progressRows(io.stderr);
  try {
    // A retry after the lock was refused starts a new run: only its events count.
    const attempt = () => {
      events.length = 0;
      return operate(opened.stack, args, parallel, (e) => events.push(e), display.write, cwd);
    };
    const home = {
      project: args.project,
      backendUrl: backend.env.PULUMI_BACKEND_URL,
      backendUrlInEnv: env.PULUMI_BACKEND_URL !== undefined,
    };
    await waitingForLock(attempt, { stack: args.stack, home, waitSeconds: args.waitForLock, onWait: (m) => io.stderr(`${m}\n`) });
    display.end();
    const plan = planFromEvents(events);
    // The engine says when the state holds a killed run's pending operations (not under --refresh): settle them.
    const pending = (command === "up" || command === "destroy") && (args.refresh || events.some(isPendingWarning));
    if (pending) plan.warnings.push(...(await settlePendingCreates(opened.stack, command)));
    return report(outcome(command, plan), plan);
  } catch (e) {
    display.end();
    const message = engineErrorMessage(e, stateDir);
    io.stderr(`error: ${message}\n`);
    // The resources' own errors say why when there are some; else the engine's reason is the report's error.
    const plan = planFromEvents(events);
    return report({ result: "failed", exitCode: EXIT.error }, plan.errors.length ? plan : { ...plan, errors: [message] });
  } finally {
    opened.dispose();
  }
}

/** The commands that make the stack when it does not exist yet. */
const STARTS_A_STACK: ReadonlySet<EngineCommand> = new Set(["preview", "up"]);

const isPendingWarning = (e: EngineEvent) => ENGINE_PENDING_WARNING.test(e.diagnosticEvent?.message.trim() ?? "");

/** The provider reads its settings from the environment: VPLATFORM_* of `env` reach the engine. */
const platformSettings = (env: NodeJS.ProcessEnv): Record<string, string> =>
  Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[0].startsWith("VPLATFORM_") && e[1] !== undefined));

const shownPath = (file: string, cwd: string) => {
  const rel = path.relative(cwd, path.resolve(cwd, file));
  return rel.startsWith("..") ? path.resolve(cwd, file) : rel;
};
