import * as fs from "node:fs";
import * as path from "node:path";
import got from "got";
import type { PulumiFn, Stack } from "@pulumi/pulumi/automation";
import { createLocalStack, findRepoRoot } from "../../env/local-stack";
import { startEmulator, type RunningEmulator } from "../../emulator";

/** What the tests use of an emulator: an in-process one, or one in a process of its own (which a test may kill). */
export type E2eEmulator = Pick<RunningEmulator, "url" | "apiKey" | "caCert" | "adminUser" | "adminPassword" | "close">;

/** One emulator, one file backend and one stack per test file: files run in parallel. */
export interface E2eContext {
  emulator: E2eEmulator;
  stack: Stack;
  /** The file backend's directory (state files as stored, secrets encrypted). */
  stateDir: string;
  /** Every line the engine printed, for assertions on progress and on secrets. */
  output: string[];
  /** Calls the platform API as the administrator (outside Pulumi), e.g. to cause drift. */
  api(method: string, apiPath: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** The emulator's request counter (administrator hook). */
  requestCounts(): Promise<{ total: number; entries: { key: string; method: string; table: string; count: number }[] }>;
  resetRequestCounts(): Promise<void>;
  /** Makes chosen answers of the emulator fail (administrator hook). */
  fault(spec: {
    method: string;
    table: string;
    status?: number;
    drop?: boolean;
    dropAfter?: boolean;
    stallMs?: number;
    lateMs?: number;
    count?: number;
    probability?: number;
    retryAfter?: number;
  }): Promise<{ id: string }>;
  clearFaults(): Promise<void>;
  /** The faults still armed (a fault with a count retires when used up), with their hits. */
  faults(): Promise<{ id: number; hits: number }[]>;
  /** Arms a chaos rule (administrator hook): it stays until cleared, firing with its probability from the emulator's seed. */
  chaos(rule: { method?: string; table?: string; probability?: number; latencyMs?: number; status?: number }): Promise<{ id: number }>;
  clearChaos(): Promise<void>;
  /** The chaos rules armed, with their hits. */
  chaosRules(): Promise<{ id: number; hits: number }[]>;
  dispose(): Promise<void>;
}

/**
 * A fresh directory `<prefix>XXXXXX` under the repository's .e2e-work (inside the repository so that the
 * dynamic-provider host resolves @pulumi/pulumi and vplatform; a fresh clone has no .e2e-work yet).
 */
export function e2eWorkDir(prefix: string): string {
  const base = path.join(findRepoRoot(), ".e2e-work");
  fs.mkdirSync(base, { recursive: true });
  return fs.mkdtempSync(path.join(base, prefix));
}

/** `program`: an inline program run in this process; `{ projectDir }`: a Pulumi project run by the language host. */
export async function startE2e(name: string, program: PulumiFn | { projectDir: string }, given?: E2eEmulator): Promise<E2eContext> {
  const emulator = given ?? (await startEmulator({ port: 0, timeScale: 0.01, quiet: true }));
  const workDir = e2eWorkDir(`${name}-`);
  const output: string[] = [];
  const stateDir = path.join(workDir, "state");
  const stack = await createLocalStack({
    stackName: typeof program === "function" ? "e2e" : `e2e-${path.basename(workDir)}`,
    stateDir,
    connection: { endpoint: emulator.url, apiKey: emulator.apiKey, caCert: emulator.caCert },
    ...(typeof program === "function"
      ? { program: { projectName: `e2e-${name}`, fn: program, workDir } }
      : { workDir: program.projectDir }),
  });
  const adminAuth = `Basic ${Buffer.from(`${emulator.adminUser}:${emulator.adminPassword}`).toString("base64")}`;
  const call = async (method: string, url: string, body?: unknown) => {
    const res = await got(url, {
      method: method as "GET",
      headers: { authorization: adminAuth },
      json: body,
      https: { certificateAuthority: emulator.caCert },
      throwHttpErrors: false,
      retry: { limit: 0 },
    });
    return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined };
  };
  return {
    emulator,
    stack,
    stateDir,
    output,
    api: (method, apiPath, body) => call(method, `${emulator.url}/api${apiPath}`, body),
    requestCounts: async () => (await call("GET", `${emulator.url}/_emulator/requests`)).body,
    resetRequestCounts: async () => void (await call("DELETE", `${emulator.url}/_emulator/requests`)),
    fault: async (spec) => (await call("POST", `${emulator.url}/_emulator/faults`, spec)).body,
    clearFaults: async () => void (await call("DELETE", `${emulator.url}/_emulator/faults`)),
    faults: async () => (await call("GET", `${emulator.url}/_emulator/faults`)).body,
    chaos: async (rule) => (await call("POST", `${emulator.url}/_emulator/chaos`, rule)).body,
    clearChaos: async () => void (await call("DELETE", `${emulator.url}/_emulator/chaos`)),
    chaosRules: async () => (await call("GET", `${emulator.url}/_emulator/chaos`)).body.rules,
    async dispose() {
      await emulator.close();
      if (typeof program !== "function") {
        // The stack's settings file lives in the project directory: leave nothing behind there.
        await stack.workspace.removeStack(stack.name, { force: true }).catch(() => undefined);
        fs.rmSync(path.join(program.projectDir, `Pulumi.${stack.name}.yaml`), { force: true });
      }
      if (!process.env.VPLATFORM_KEEP_E2E) fs.rmSync(workDir, { recursive: true, force: true });
    },
  };
}

/** The state files as the backend stores them (secrets encrypted), for a search for plain text. */
export function storedState(ctx: Pick<E2eContext, "stateDir">): string {
  return fs
    .readdirSync(ctx.stateDir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".json"))
    .map((f) => fs.readFileSync(path.join(ctx.stateDir, f), "utf8"))
    .join("\n");
}

/** The status of a GET with an API key (a Bearer token): 200 while it authenticates, 401 once revoked or expired. */
export async function statusWithKey(emulator: E2eEmulator, secret: string): Promise<number> {
  const res = await got(`${emulator.url}/api/v4/system`, {
    headers: { authorization: `Bearer ${secret}` },
    https: { certificateAuthority: emulator.caCert },
    throwHttpErrors: false,
    retry: { limit: 0 },
  });
  return res.statusCode;
}

/** Options for stack operations that collect the engine's output into ctx.output. */
export function collect(ctx: E2eContext) {
  return { onOutput: (s: string) => ctx.output.push(s), color: "never" as const };
}

/** The engine's error lines of a failed run (its output repeats every resource's progress). */
export const errorLines = (message: string) =>
  message
    .split("\n")
    .filter((l) => /error|vplatform:/i.test(l) && !/^\s*(stdout|stderr|code):/.test(l))
    .map((l) => l.trim().slice(0, 400))
    .join(" | ") || message.slice(-400);
