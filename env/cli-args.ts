import { parseArgs } from "node:util";
import { MIN_PARALLEL, SLOTS_PER_VM } from "./parallelism";

/** Commands that run the engine on the stack. */
export const ENGINE_COMMANDS = ["preview", "up", "refresh", "destroy", "drift"] as const;
/** Commands on the copies of a lab, from the stack's `labs` output (lab-command.ts). */
export const LAB_COMMANDS = ["reset", "roster"] as const;
export const COMMANDS = [...ENGINE_COMMANDS, ...LAB_COMMANDS] as const;
export type Command = (typeof COMMANDS)[number];
export type LabCommand = (typeof LAB_COMMANDS)[number];
export type EngineCommand = (typeof ENGINE_COMMANDS)[number];

export const isLabCommand = (command: Command): command is LabCommand => (LAB_COMMANDS as readonly Command[]).includes(command);

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
  /** reset, roster: the lab (needed when the stack has several) and one copy's number; reset: `--all` instead. */
  lab?: string;
  copy?: number;
  all?: boolean;
  /** roster: CSV instead of Markdown; API-key secrets in clear. */
  csv?: boolean;
  showSecrets?: boolean;
}

export type ParsedArgs = { ok: true; args: CliArgs } | { ok: false; help: boolean; message: string };

export const USAGE = `usage: vplatform env <${COMMANDS.join("|")}> <file.yaml> --stack <name> [options]

  preview   show the plan: resources to create, update, replace or delete, with the changed fields
  up        refresh, then make the platform match the file
  refresh   read the platform into the stack's state
  destroy   delete everything the stack created
  drift     refresh-preview: exit 2 when the platform differs from the file, 0 when it matches
  reset     restore every VM of a lab's copies to its reset snapshot and power it back to its declared state
            (--copy <n> or --all)
  roster    per copy of a lab: its user, network, VMs with their keys, power state and first IP address
            (--markdown, the default; --csv; --json)

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
  --copy <n>         reset, roster: copy number n of the lab only; --all: reset every copy
  --lab <name>       reset, roster: the lab, when the stack has several
  --csv              roster: one line per VM, comma-separated
  --show-secrets     roster: the copies' API-key secrets in clear (otherwise [secret])
  --parallel <n>     resource operations at once (default: ${SLOTS_PER_VM} per VM of the file, at least ${MIN_PARALLEL},
                     so a lab's VMs are created and powered on together: their waits are shared and cheap)
                     reset: VMs reset at once (default: every VM of the chosen copies)
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
        copy: { type: "string" },
        all: { type: "boolean" },
        lab: { type: "string" },
        csv: { type: "boolean" },
        "show-secrets": { type: "boolean" },
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
  if (values.markdown && !["preview", "drift", "roster"].includes(command)) return fail("--markdown applies to preview, drift and roster");
  if (values.csv && command !== "roster") return fail("--csv applies to roster");
  const formats = (["json", "markdown", "csv"] as const).filter((f) => values[f]);
  if (formats.length > 1) return fail(`give one of --${formats.join(", --")}, not several`);
  if (values["show-secrets"] && command !== "roster") return fail("--show-secrets applies to roster");
  if (values.all && command !== "reset") return fail("--all applies to reset (roster lists every copy unless --copy)");
  const lab = values.lab;
  if ((lab !== undefined || values.copy !== undefined) && !isLabCommand(command as Command))
    return fail(`--${lab !== undefined ? "lab" : "copy"} applies to reset and roster`);
  let copy: number | undefined;
  if (values.copy !== undefined) {
    copy = Number(values.copy);
    if (!Number.isInteger(copy) || copy < 1) return fail(`--copy needs a copy number (1 or more), got '${values.copy}'`);
  }
  if (command === "reset" && copy !== undefined && values.all) return fail("give --copy <n> or --all, not both");
  if (command === "reset" && copy === undefined && !values.all)
    return fail("reset needs --copy <n> (one copy) or --all (every copy of the lab): it discards the students' changes");
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
      ...(lab === undefined ? {} : { lab }),
      ...(copy === undefined ? {} : { copy }),
      ...(values.all ? { all: true } : {}),
      ...(values.csv ? { csv: true } : {}),
      ...(values["show-secrets"] ? { showSecrets: true } : {}),
    },
  };
}
