import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { LocalWorkspace, PulumiCommand, type Stack } from "@pulumi/pulumi/automation";
import type { LoadedEnvironment } from "./load-environment";
import { environmentProgram } from "./program";
import { findRepoRoot } from "./local-stack";
import { summaryFromEvents } from "./summary-from-events";
import { watchFromStartOptions } from "../provider/client/exitWithEngine";

export interface EnvironmentStackOptions {
  /** Absent for refresh and destroy, which work from the state and never run the program. */
  environment?: LoadedEnvironment;
  projectName: string;
  stackName: string;
  /** Variables for the engine besides the caller's own (backend, passphrase). */
  env: Record<string, string>;
  /** Only a stack that exists (a command that reads its outputs must not create an empty one). */
  existing?: boolean;
}

export interface EnvironmentStack {
  stack: Stack;
  /** Removes the temporary program directory (the state stays in the backend). */
  dispose(): void;
}

/**
 * A stack whose program is the environment, run in this process (Automation
 * API inline program): the user's repository needs no Pulumi project and no
 * code. The engine starts the dynamic-provider host in the program directory,
 * so that directory is a temporary one whose node_modules link to this package
 * and its @pulumi/pulumi; nothing is written into the user's repository.
 */
export async function openEnvironmentStack(opts: EnvironmentStackOptions): Promise<EnvironmentStack> {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "vplatform-env-"));
  const dispose = () => fs.rmSync(workDir, { recursive: true, force: true });
  try {
    linkPackages(workDir);
    const open = opts.existing ? LocalWorkspace.selectStack.bind(LocalWorkspace) : LocalWorkspace.createOrSelectStack.bind(LocalWorkspace);
    const stack = await open(
      { stackName: opts.stackName, projectName: opts.projectName, program: () => environmentProgram(opts.environment ?? noProgram()) },
      {
        workDir,
        pulumiCommand: await pulumiCommand(),
        projectSettings: { name: opts.projectName, runtime: "nodejs", description: "YAML environment provisioned by `vplatform env`" },
        envVars: {
          PULUMI_SKIP_UPDATE_CHECK: "true",
          PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
          // Its provider processes watch the engine from their start: a kill before their first call leaves none.
          NODE_OPTIONS: watchFromStartOptions(process.env.NODE_OPTIONS),
          ...opts.env,
        },
      },
    );
    // The commands read the engine's events, never an up's outputs (`vplatform env outputs` reads the stack's).
    return { stack: summaryFromEvents(stack, "not-read"), dispose };
  } catch (e) {
    dispose();
    throw e;
  }
}

function noProgram(): never {
  throw new Error("this command runs without the environment's program");
}

/** `node_modules/vplatform` and `node_modules/@pulumi/pulumi` as this process resolves them. */
function linkPackages(workDir: string): void {
  const modules = path.join(workDir, "node_modules");
  fs.mkdirSync(path.join(modules, "@pulumi"), { recursive: true });
  fs.symlinkSync(findRepoRoot(), path.join(modules, "vplatform"), "dir");
  fs.symlinkSync(path.dirname(require.resolve("@pulumi/pulumi/package.json")), path.join(modules, "@pulumi", "pulumi"), "dir");
}

/** The engine: VPLATFORM_PULUMI_ROOT, or the one `./dev` builds in a checkout, else `pulumi` on PATH. */
async function pulumiCommand(): Promise<PulumiCommand> {
  const built = path.join(findRepoRoot(), ".tools", "pulumi");
  const root = process.env.VPLATFORM_PULUMI_ROOT ?? (fs.existsSync(path.join(built, "bin", "pulumi")) ? built : undefined);
  try {
    return await PulumiCommand.get(root ? { root } : {});
  } catch (e) {
    // The Automation API's own text is a bare `spawn pulumi ENOENT`.
    if (!/\bENOENT\b/.test((e as Error).message)) throw e;
    const where = root ? `VPLATFORM_PULUMI_ROOT has no bin/pulumi (${root})` : "no `pulumi` on PATH";
    throw new Error(
      `the Pulumi CLI was not found: ${where}. vplatform env runs the stock Pulumi CLI as its engine: install it ` +
        "(https://www.pulumi.com/docs/install/; in GitHub Actions, the pulumi/actions step) and run again. Nothing was run.",
    );
  }
}
