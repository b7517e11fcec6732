// The main job: provisions an environment definition (YAML) on the embedded
// emulator with the real Pulumi engine, then prints what it created.
//   ./dev lab [up|preview|refresh|destroy|drift] [--env <file.yaml>]
// It runs the file the way `vplatform env` does (one code path), with the
// emulator's endpoint and key as the platform settings. State lives in .lab/
// (emulator data and the stack's file backend) so that a later
// `./dev lab destroy` tears down what `./dev lab` made.
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator } from "../emulator";
import { COMMANDS, type Command } from "../env/cli-args";
import { fileBackendUrl } from "../env/file-state";
import { findRepoRoot } from "../env/local-stack";
import { runEnvironmentCommand } from "../env/run-command";
import { ApiClient } from "../provider/client/api-client";
import { resolveProviderConfig } from "../provider/config/provider-config";
import { VM_TABLE } from "../provider/schemas/tables";

function parseArgs(argv: string[]): { command: Command; envFile: string } {
  let command: Command = "up";
  let envFile = path.join("examples", "environments", "lab.yaml");
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--env") envFile = argv[++i];
    else if ((COMMANDS as readonly string[]).includes(a)) command = a as Command;
    else throw new Error(`unknown argument '${a}' (usage: lab [${COMMANDS.join("|")}] [--env file.yaml])`);
  }
  return { command, envFile };
}

async function printVms(client: ApiClient): Promise<void> {
  const vms = await client.list<Record<string, unknown>>(VM_TABLE, {
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

async function main(): Promise<number> {
  const { command, envFile } = parseArgs(process.argv.slice(2));
  const root = findRepoRoot();
  const labDir = path.join(root, ".lab");
  fs.mkdirSync(labDir, { recursive: true });
  const emulator = await startEmulator({ port: 0, dataDir: path.join(labDir, "emulator"), quiet: true });
  console.log(`emulator: ${emulator.url} (state in .lab/emulator)`);
  try {
    const platform = { VPLATFORM_ENDPOINT: emulator.url, VPLATFORM_API_KEY: emulator.apiKey, VPLATFORM_CA_CERT: emulator.caCert };
    const code = await runEnvironmentCommand(
      { command, file: envFile, stack: "lab", project: "vplatform-lab", json: false, refresh: true, waitForLock: 0, markdown: false },
      undefined,
      {
        ...process.env,
        ...platform,
        PULUMI_BACKEND_URL: fileBackendUrl(path.join(labDir, "state")),
        PULUMI_CONFIG_PASSPHRASE: process.env.PULUMI_CONFIG_PASSPHRASE ?? "vplatform-local",
      },
      process.cwd(),
    );
    const client = new ApiClient(resolveProviderConfig({}, platform));
    console.log("");
    await printVms(client);
    client.close();
    return code;
  } finally {
    await emulator.close();
  }
}

main().then(
  (code) => (process.exitCode = code),
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  },
);
