import * as fs from "node:fs";
import * as path from "node:path";
import { fileBackendUrl, repairFileState } from "./file-state";
import { LocalWorkspace, PulumiCommand, type PulumiFn, type Stack } from "@pulumi/pulumi/automation";
import { summaryFromEvents } from "./summary-from-events";

/** Where the provider finds the platform: what `pulumi up` needs besides the program. */
export interface PlatformConnection {
  endpoint: string;
  apiKey: string;
  caCert?: string;
}

/** Where the stack's state lives: a file backend's directory (created if missing), or a backend URL (`postgres://...`). */
export type StateLocation = { stateDir: string } | { backendUrl: string };

export type LocalStackOptions = StateLocation & {
  stackName: string;
  connection: PlatformConnection;
  /** A program directory with Pulumi.yaml (run by the Node.js language host)... */
  workDir?: string;
  /** ...or an inline program run in this process (its workDir must see node_modules). */
  program?: { projectName: string; fn: PulumiFn; workDir: string };
  /** Extra stack config, namespaced keys. */
  config?: Record<string, string>;
};

/** The engine's bin/ directory (./dev builds it into .tools/pulumi). */
export function pulumiRoot(): string {
  return process.env.VPLATFORM_PULUMI_ROOT ?? path.join(findRepoRoot(), ".tools", "pulumi");
}

/** The package root, from sources (env/) or from the build (dist/env/). */
export function findRepoRoot(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const pkg = path.join(dir, "package.json");
    if (fs.existsSync(pkg) && JSON.parse(fs.readFileSync(pkg, "utf8")).name === "vplatform") return dir;
    if (path.dirname(dir) === dir) throw new Error(`vplatform package root not found above ${__dirname}`);
  }
}

/** The backend URL of a state location (a directory: a file backend writing no sidecar, file-state.ts). */
export function backendUrlOf(state: StateLocation): string {
  return "backendUrl" in state ? state.backendUrl : fileBackendUrl(state.stateDir);
}

/** Offline engine settings: the given backend (a directory: a file backend), passphrase secrets, no update checks or plugin downloads. */
export function engineEnv(state: string | StateLocation): Record<string, string> {
  return {
    PULUMI_CONFIG_PASSPHRASE: process.env.PULUMI_CONFIG_PASSPHRASE ?? "vplatform-local",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_BACKEND_URL: backendUrlOf(typeof state === "string" ? { stateDir: state } : state),
  };
}

/** Creates (or selects) a stack on a local file backend or the given one, configured to reach the platform. */
export async function createLocalStack(opts: LocalStackOptions): Promise<Stack> {
  if ("stateDir" in opts) {
    fs.mkdirSync(opts.stateDir, { recursive: true });
    repairFileState(opts.stateDir);
  }
  const pulumiCommand = await PulumiCommand.get({ root: pulumiRoot() });
  const pulumiHome = process.env.PULUMI_HOME ?? path.join(findRepoRoot(), ".pulumi", "home");
  fs.mkdirSync(pulumiHome, { recursive: true });
  const wsOpts = { pulumiCommand, pulumiHome, envVars: engineEnv(opts) };
  let stack: Stack;
  if (opts.program) {
    stack = await LocalWorkspace.createOrSelectStack(
      { stackName: opts.stackName, projectName: opts.program.projectName, program: opts.program.fn },
      {
        ...wsOpts,
        workDir: opts.program.workDir,
        projectSettings: { name: opts.program.projectName, runtime: "nodejs", backend: { url: backendUrlOf(opts) } },
      },
    );
  } else if (opts.workDir) {
    stack = await LocalWorkspace.createOrSelectStack({ stackName: opts.stackName, workDir: opts.workDir }, wsOpts);
  } else {
    throw new Error("createLocalStack: give workDir or program");
  }
  await stack.setAllConfig({
    "vplatform:endpoint": { value: opts.connection.endpoint },
    "vplatform:apiKey": { value: opts.connection.apiKey, secret: true },
    ...(opts.connection.caCert ? { "vplatform:caCert": { value: opts.connection.caCert } } : {}),
    ...Object.fromEntries(Object.entries(opts.config ?? {}).map(([k, v]) => [k, { value: v }])),
  });
  return summaryFromEvents(stack, "from-events");
}
