// The main job: provisions an environment definition (YAML) on the embedded
// emulator with the real Pulumi engine, then prints what it created.
//   ./dev lab [up|preview|refresh|destroy] [--env <file.yaml>]
// State lives in .lab/ (emulator data and the stack's file backend) so that a
// later `./dev lab destroy` tears down what `./dev lab` made.
import * as fs from "fs";
import * as path from "path";
import { startEmulator } from "../emulator";
import { createLocalStack, findRepoRoot } from "../env/local-stack";
import { ApiClient } from "../provider/client/api-client";
import { resolveProviderConfig } from "../provider/config/provider-config";

const OPERATIONS = ["up", "preview", "refresh", "destroy"] as const;
type Operation = (typeof OPERATIONS)[number];

function parseArgs(argv: string[]): { op: Operation; envFile?: string } {
  let op: Operation = "up";
  let envFile: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--env") envFile = argv[++i];
    else if ((OPERATIONS as readonly string[]).includes(a)) op = a as Operation;
    else throw new Error(`unknown argument '${a}' (usage: lab [${OPERATIONS.join("|")}] [--env file.yaml])`);
  }
  return { op, envFile };
}

async function printVms(client: ApiClient): Promise<void> {
  const vms = await client.list<Record<string, unknown>>("vms", {
    fields: "$key,name,machine,cpu_cores,ram,machine#status#status as status,machine#status#node as node",
    filter: "is_snapshot eq false",
    sort: "+name",
  });
  const rows = [["VM", "KEY", "MACHINE", "CPU", "RAM (MB)", "STATUS", "NODE"]].concat(
    vms.map((v) => [v.name, v.$key, v.machine, v.cpu_cores, v.ram, v.status, v.node ?? "-"].map((x) => String(x))),
  );
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  for (const r of rows) console.log(r.map((cell, c) => cell.padEnd(widths[c])).join("  "));
  if (vms.length === 0) console.log("(no VMs)");
}

async function main(): Promise<void> {
  const { op, envFile } = parseArgs(process.argv.slice(2));
  const root = findRepoRoot();
  const labDir = path.join(root, ".lab");
  fs.mkdirSync(labDir, { recursive: true });
  const emulator = await startEmulator({ port: 0, dataDir: path.join(labDir, "emulator"), quiet: true });
  console.log(`emulator: ${emulator.url} (state in .lab/emulator)`);
  try {
    const connection = { endpoint: emulator.url, apiKey: emulator.apiKey, caCert: emulator.caCert };
    const stack = await createLocalStack({
      stackName: "lab",
      stateDir: path.join(labDir, "state"),
      connection,
      workDir: root,
      config: envFile ? { "vplatform-lab:environment": path.resolve(envFile) } : {},
    });
    const onOutput = (s: string) => process.stdout.write(s);
    if (op === "up") await stack.up({ onOutput, color: "auto" });
    else if (op === "preview") await stack.preview({ onOutput, color: "auto" });
    // Each run has a fresh endpoint and key: refresh and destroy must run the program so the
    // provider gets this run's configuration, not the one stored with the last update.
    else if (op === "refresh") await stack.refresh({ onOutput, color: "auto", runProgram: true });
    else await stack.destroy({ onOutput, color: "auto", runProgram: true });
    const client = new ApiClient(
      resolveProviderConfig((k) => ({ "vplatform:endpoint": emulator.url, "vplatform:apiKey": emulator.apiKey, "vplatform:caCert": emulator.caCert })[k], {}),
    );
    console.log("");
    await printVms(client);
    client.close();
  } finally {
    await emulator.close();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
