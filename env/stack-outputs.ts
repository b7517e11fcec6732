/**
 * Reading a stack `vplatform env up` made, without running its file: its outputs, as the stock CLI shows them.
 * Used by `outputs`, `reset` and `roster`.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { LocalWorkspace, Stack } from "@pulumi/pulumi/automation";
import type { CliArgs } from "./cli-args";

/**
 * The stack's outputs as `pulumi stack output --json` shows them: secrets as
 * `[secret]` unless `showSecrets`. (The Automation API's `outputs()` always
 * decrypts them.)
 */
export async function stackOutputs(stack: Stack, showSecrets: boolean): Promise<Record<string, unknown>> {
  const ws = stack.workspace as LocalWorkspace;
  const args = ["stack", "output", "--json", "--stack", stack.name, ...(showSecrets ? ["--show-secrets"] : [])];
  const { stdout } = await promisify(execFile)(ws.pulumiCommand.command, args, {
    cwd: ws.workDir,
    env: { ...process.env, ...ws.envVars },
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(stdout);
}

/** A command that reads a stack was given one the backend does not have: what to run first. */
export const noSuchStack = (args: Pick<CliArgs, "stack" | "project" | "file">, backend = "this backend"): string =>
  `--stack ${args.stack}: no such stack of project '${args.project}' in ${backend}: nothing was run. Check the stack's name ` +
  `and the backend (PULUMI_BACKEND_URL); a new environment starts with \`npx vplatform env up ${args.file} --stack ${args.stack}\` ` +
  "(or give --project)";
