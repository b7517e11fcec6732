// A stack under the real engine against its own emulator, with the emulator's
// request counter and recorder at hand: what the request-economy tests measure.
import * as fs from "node:fs";
import * as path from "node:path";
import got from "got";
import type { PulumiFn, Stack } from "@pulumi/pulumi/automation";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../emulator";
import type { RecordedExchange } from "../../emulator/admin/recorder";
import { createLocalStack, findRepoRoot } from "../../env/local-stack";

const root = findRepoRoot();

export interface RequestCounts {
  total: number;
  entries: { method: string; table: string; count: number }[];
}

export interface CountedStack {
  emu: RunningEmulator;
  stack: Stack;
  output: string[];
  counts(): Promise<RequestCounts>;
  reset(): Promise<void>;
  /** Records every request from now on; `recorded()` reads them back. */
  record(): Promise<void>;
  recorded(): RecordedExchange[];
  api(apiPath: string): Promise<any>;
  /** Changes a row as an admin would, outside the stack. */
  patch(apiPath: string, body: Record<string, unknown>): Promise<void>;
  dispose(): Promise<void>;
}

export async function openCountedStack(
  name: string,
  program: PulumiFn,
  emuOpts: EmulatorOptions,
  config: Record<string, string> = {},
): Promise<CountedStack> {
  const emu = await startEmulator({ port: 0, quiet: true, ...emuOpts });
  fs.mkdirSync(path.join(root, ".e2e-work"), { recursive: true });
  const work = fs.mkdtempSync(path.join(root, ".e2e-work", `${name}-`));
  const stack = await createLocalStack({
    stackName: "e2e",
    stateDir: path.join(work, "state"),
    connection: { endpoint: emu.url, apiKey: emu.apiKey, caCert: emu.caCert },
    program: { projectName: `e2e-${name}`, fn: program, workDir: work },
    config,
  });
  const admin = { username: emu.adminUser, password: emu.adminPassword, https: { certificateAuthority: emu.caCert } };
  const recording = path.join(work, "requests.jsonl");
  return {
    emu,
    stack,
    output: [],
    counts: () => got(`${emu.url}/_emulator/requests`, admin).json(),
    reset: async () => void (await got(`${emu.url}/_emulator/requests`, { ...admin, method: "DELETE" })),
    async record() {
      fs.rmSync(recording, { force: true });
      await got(`${emu.url}/_emulator/recorder`, { ...admin, method: "PUT", json: { file: recording } });
    },
    recorded: () =>
      fs.existsSync(recording)
        ? fs
            .readFileSync(recording, "utf8")
            .split("\n")
            .filter(Boolean)
            .map((line) => JSON.parse(line))
        : [],
    api: (apiPath) => got(`${emu.url}/api${apiPath}`, admin).json(),
    patch: async (apiPath, body) => void (await got(`${emu.url}/api${apiPath}`, { ...admin, method: "PUT", json: body })),
    async dispose() {
      await emu.close();
      fs.rmSync(work, { recursive: true, force: true });
    },
  };
}

/** Requests of `method` on `table` the counter saw. */
export const countOf = (c: RequestCounts, method: string, table: string): number =>
  c.entries.filter((e) => e.method === method && e.table === table).reduce((sum, e) => sum + e.count, 0);

/** Automation options that keep the engine's output for the assertions. */
export const collectInto = (run: CountedStack) => ({ onOutput: (s: string) => run.output.push(s), color: "never" as const });

/** A counted stack opened before the enclosing describe's tests and disposed after them: `const run = useCountedStack(...)`, then `run()`. */
export function useCountedStack(
  name: string,
  program: PulumiFn,
  emuOpts: EmulatorOptions,
  config: Record<string, string> = {},
): () => CountedStack {
  let opened: CountedStack | undefined;
  beforeAll(async () => {
    opened = await openCountedStack(name, program, emuOpts, config);
  }, 120_000);
  afterAll(() => opened?.dispose());
  return () => opened!;
}
