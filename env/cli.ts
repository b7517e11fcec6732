#!/usr/bin/env node
// `vplatform env <preview|up|refresh|destroy|drift> <file.yaml> --stack <name>`:
// provisions a YAML environment from the user's own repository (see
// docs/guides/yaml-environments.md). Exit codes: see EXIT in run-command.ts.
// `vplatform student reset`: a student's own copy put back with their own key (student-command.ts).
import { SETTINGS_FROM_ENV_CLI, SETTINGS_FROM_VARIABLE } from "../provider/config/provider-config";
import { parseCliArgs, USAGE } from "./cli-args";
import { EXIT, runEnvironmentCommand } from "./run-command";
import { runStudentCommand } from "./student-command";
import { STUDENT_USAGE } from "./student-args";

async function main(argv: string[]): Promise<number> {
  const [group, ...rest] = argv;
  if (group === "--help" || group === "-h" || group === "help") {
    process.stdout.write(`${USAGE}\n\n${STUDENT_USAGE}\n`);
    return EXIT.ok;
  }
  if (group === "student") {
    process.env[SETTINGS_FROM_VARIABLE] = SETTINGS_FROM_ENV_CLI;
    return runStudentCommand(rest, { stdout: (s) => void process.stdout.write(s), stderr: (s) => void process.stderr.write(s) });
  }
  if (group !== "env") {
    process.stderr.write(`${group ? `unknown command '${group}'` : "missing command"}\n${USAGE}\n\n${STUDENT_USAGE}\n`);
    return EXIT.invalid;
  }
  const parsed = parseCliArgs(rest);
  if (!parsed.ok) {
    if (parsed.help) process.stdout.write(`${USAGE}\n`);
    else process.stderr.write(`vplatform env: ${parsed.message}\n${USAGE}\n`);
    return parsed.help ? EXIT.ok : EXIT.invalid;
  }
  // The provider this CLI runs (in the engine it starts, and in-process for reset and roster) reads its settings
  // from VPLATFORM_* alone: marked so, its errors name those variables, not stack config or --run-program.
  process.env[SETTINGS_FROM_VARIABLE] = SETTINGS_FROM_ENV_CLI;
  return runEnvironmentCommand(parsed.args);
}

/**
 * Ends the process once main has settled, what it wrote flushed first. The engine runs the environment's program in
 * this process: when the engine dies mid-run, that program's work (registrations whose engine is gone, the Automation
 * API's server) can keep the event loop busy, and an orphan `vplatform env preview` once spun for 9 minutes at 2.5 GB.
 */
function exitWith(code: number): void {
  process.exitCode = code;
  process.stdout.write("", () => process.stderr.write("", () => process.exit(code)));
}

main(process.argv.slice(2)).then(exitWith, (err) => {
  process.stderr.write(`vplatform: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  exitWith(EXIT.error);
});
