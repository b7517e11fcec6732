import { parseArgs } from "node:util";
import { MIN_PARALLEL, SLOTS_PER_VM } from "./parallelism";

export const COMMANDS = ["preview", "up", "refresh", "destroy", "drift"] as const;
export type Command = (typeof COMMANDS)[number];

export const DEFAULT_PROJECT = "vplatform-env";

export interface CliArgs {
  command: Command;
  /** The environment file (YAML). */
  file: string;
  stack: string;
  project: string;
  json: boolean;
  /** Engine parallelism; absent: derived from the file (defaultParallelism). */
  parallel?: number;
  /** `up` reads the platform first so changes made outside Pulumi are reverted (default on). */
  refresh: boolean;
  /** Seconds to wait while another update holds the stack's lock (0: fail at once). */
  waitForLock: number;
  /** `preview`/`drift`: the plan as a pull-request comment (Markdown with a Mermaid diagram). */
  markdown: boolean;
  /** preview, drift, up: a policy pack directory (e.g. node_modules/vplatform/policy) and its config file. */
  policyPack?: string;
  policyPackConfig?: string;
}

export type ParsedArgs = { ok: true; args: CliArgs } | { ok: false; help: boolean; message: string };

export const USAGE = `usage: vplatform env <${COMMANDS.join("|")}> <file.yaml> --stack <name> [options]

  preview   show the plan: resources to create, update, replace or delete, with the changed fields
  up        refresh, then make the platform match the file
  refresh   read the platform into the stack's state
  destroy   delete everything the stack created
  drift     refresh-preview: exit 2 when the platform differs from the file, 0 when it matches

options:
  --stack <name>     stack (one per environment: dev, staging, prod); also selects the file's stack overlay
  --json             print the plan or result as JSON on stdout (engine progress goes to stderr)
  --markdown         preview, drift: print the plan as a pull-request comment (Markdown, with a Mermaid diagram)
  --policy-pack <dir>
                     preview, drift, up: run a policy pack (node_modules/vplatform/policy); a mandatory
                     violation stops the run (exit 1). --policy-pack-config <file.json> configures its rules
  --wait-for-lock <seconds>
                     when another update holds the stack (another pipeline), wait for it up to this long
                     (default: fail at once, exit 1)
  --parallel <n>     resource operations at once (default: ${SLOTS_PER_VM} per VM of the file, at least ${MIN_PARALLEL},
                     so a lab's VMs are created and powered on together: their waits are shared and cheap)
  --project <name>   Pulumi project of the stack (default ${DEFAULT_PROJECT})
  --no-refresh       up: do not read the platform first

exit codes: 0 ok (drift: no drift), 1 error, 2 drift found, 3 invalid file or arguments (nothing sent)
state: PULUMI_BACKEND_URL or \`pulumi login\`; else a local file backend in ./.vplatform/state
platform: VPLATFORM_ENDPOINT, VPLATFORM_API_KEY (or _USERNAME/_PASSWORD), VPLATFORM_CA_CERT, ...`;

/** Parses the arguments after `vplatform env`; never throws. */
export function parseCliArgs(argv: readonly string[]): ParsedArgs {
  // biome-ignore lint/suspicious/noImplicitAnyLet: typed by its assignment in the try below (control-flow typing)
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        stack: { type: "string", short: "s" },
        project: { type: "string" },
        json: { type: "boolean" },
        markdown: { type: "boolean" },
        "wait-for-lock": { type: "string" },
        "policy-pack": { type: "string" },
        "policy-pack-config": { type: "string" },
        parallel: { type: "string", short: "p" },
        "no-refresh": { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (e) {
    return { ok: false, help: false, message: (e as Error).message };
  }
  const { values, positionals } = parsed;
  if (values.help) return { ok: false, help: true, message: USAGE };
  const [command, file, ...extra] = positionals;
  const fail = (message: string): ParsedArgs => ({ ok: false, help: false, message });
  if (!command) return fail("missing command");
  if (!(COMMANDS as readonly string[]).includes(command)) return fail(`unknown command '${command}' (one of ${COMMANDS.join(", ")})`);
  if (!file) return fail(`${command} needs the environment file, e.g. environments/dev.yaml`);
  if (extra.length) return fail(`unexpected argument '${extra[0]}'`);
  if (!values.stack) return fail("--stack <name> is required (e.g. --stack dev)");
  let parallel: number | undefined;
  if (values.parallel !== undefined) {
    parallel = Number(values.parallel);
    if (!Number.isInteger(parallel) || parallel < 1) return fail(`--parallel needs a positive whole number, got '${values.parallel}'`);
  }
  if (values["no-refresh"] && command !== "up") return fail("--no-refresh applies to up only");
  const waitForLock = Number(values["wait-for-lock"] ?? 0);
  if (!Number.isInteger(waitForLock) || waitForLock < 0)
    return fail(`--wait-for-lock needs whole seconds (0 or more), got '${values["wait-for-lock"]}'`);
  if (values.markdown && command !== "preview" && command !== "drift") return fail("--markdown applies to preview and drift");
  if (values.markdown && values.json) return fail("give --json or --markdown, not both");
  const policyPack = values["policy-pack"];
  if (policyPack !== undefined && !["preview", "drift", "up"].includes(command))
    return fail("--policy-pack applies to preview, drift and up");
  if (values["policy-pack-config"] !== undefined && policyPack === undefined) return fail("--policy-pack-config needs --policy-pack");
  return {
    ok: true,
    args: {
      command: command as Command,
      file,
      stack: values.stack,
      project: values.project ?? DEFAULT_PROJECT,
      json: values.json ?? false,
      ...(parallel === undefined ? {} : { parallel }),
      refresh: !values["no-refresh"],
      waitForLock,
      markdown: values.markdown ?? false,
      ...(policyPack === undefined ? {} : { policyPack }),
      ...(values["policy-pack-config"] === undefined ? {} : { policyPackConfig: values["policy-pack-config"] }),
    },
  };
}
