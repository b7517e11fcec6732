import { parseArgs } from "node:util";
import { MIN_PARALLEL, SLOTS_PER_VM } from "./parallelism";

// The CLI's commands, options, exit codes and environment, declared once: the parser, the usage
// (`vplatform env --help`) and docs/reference/cli.md (scripts/gen-schema.ts) all read them.

/** `vplatform env`'s commands and what each does; a new command is one more entry. */
export const COMMAND_SPECS = {
  preview:
    "show the plan: resources to create, update, replace or delete, with the changed fields; a lab with a calendar: its next start, stop and end (Calendar:)",
  up: "refresh, then make the platform match the file",
  refresh: "read the platform into the stack's state",
  destroy: "delete everything the stack created",
  drift: "refresh-preview: exit 2 when the platform differs from the file, 0 when it matches",
  reset: "restore every VM of a lab's copies to its reset snapshot and power it back to its declared state (--copy <n> or --all)",
  roster: "per copy of a lab: its user, network, VMs with their keys, power state and first IP address",
  outputs: "print the stack's outputs as JSON (each entry's key, an API key's secret): secrets as [secret] unless --show-secrets",
} as const;
export type Command = keyof typeof COMMAND_SPECS;
export const COMMANDS = Object.keys(COMMAND_SPECS) as Command[];
/** Commands on the copies of a lab, from the stack's `labs` output (lab-command.ts). */
export const LAB_COMMANDS = ["reset", "roster"] as const satisfies readonly Command[];
export type LabCommand = (typeof LAB_COMMANDS)[number];
/** The commands that run the engine on the file; `outputs` only reads the stack (outputs-command.ts). */
export type EngineCommand = Exclude<Command, LabCommand | "outputs">;
export const isLabCommand = (command: Command): command is LabCommand => (LAB_COMMANDS as readonly Command[]).includes(command);

export const DEFAULT_PROJECT = "vplatform-env";

export interface OptionSpec {
  type: "string" | "boolean";
  short?: string;
  /** The value's placeholder in the usage ("<name>"); string options only. */
  value?: string;
  /** What it does. */
  meaning: string;
  /** What applies when it is not given. */
  default?: string;
  /** The commands it applies to (refused with the others); absent: all. */
  commands?: readonly Command[];
  /** An option it needs beside it. */
  needs?: "policy-pack";
}

/** The options, in the usage's order. */
export const OPTIONS = {
  stack: {
    type: "string",
    short: "s",
    value: "<name>",
    meaning: "stack (one per environment: dev, staging, prod); also selects the file's stack overlay; required",
  },
  json: { type: "boolean", meaning: "print the plan or result as JSON on stdout (engine progress goes to stderr)" },
  markdown: {
    type: "boolean",
    meaning: "print the plan as a pull-request comment (Markdown, with a Mermaid diagram); roster: a Markdown table (its default)",
    commands: ["preview", "drift", "roster"],
  },
  csv: { type: "boolean", meaning: "one line per VM, comma-separated", commands: ["roster"] },
  "show-secrets": {
    type: "boolean",
    meaning: "secrets in clear: roster, the copies' API-key secrets; outputs, every secret output",
    default: "[secret]",
    commands: ["roster", "outputs"],
  },
  copy: { type: "string", value: "<n>", meaning: "copy number n of the lab only", commands: ["reset", "roster"] },
  all: { type: "boolean", meaning: "every copy of the lab (reset needs --copy or --all)", commands: ["reset"] },
  lab: { type: "string", value: "<name>", meaning: "the lab, when the stack has several", commands: ["reset", "roster"] },
  "policy-pack": {
    type: "string",
    value: "<dir>",
    meaning: "run a policy pack (node_modules/vplatform/policy); a mandatory violation stops the run (exit 1)",
    commands: ["preview", "drift", "up"],
  },
  "policy-pack-config": {
    type: "string",
    value: "<file.json>",
    meaning: "configures the policy pack's rules",
    needs: "policy-pack",
  },
  "wait-for-lock": {
    type: "string",
    value: "<seconds>",
    meaning: "when another update holds the stack (another pipeline), wait for it up to this long",
    default: "fail at once, exit 1",
  },
  parallel: {
    type: "string",
    short: "p",
    value: "<n>",
    meaning: "resource operations at once; reset: VMs reset at once",
    default: `${SLOTS_PER_VM} per VM of the file, at least ${MIN_PARALLEL}, so a lab's VMs are created and powered on together: their waits are shared and cheap; reset: every VM of the chosen copies`,
  },
  project: { type: "string", value: "<name>", meaning: "Pulumi project of the stack", default: DEFAULT_PROJECT },
  "no-refresh": { type: "boolean", meaning: "do not read the platform first", commands: ["up"] },
  help: { type: "boolean", short: "h", meaning: "print the usage" },
} as const satisfies Record<string, OptionSpec>;
export type OptionName = keyof typeof OPTIONS;
export const spec = (name: OptionName): OptionSpec => OPTIONS[name];

/** Exit codes CI can branch on. */
export const EXIT_CODES = {
  ok: { code: 0, meaning: "ok (drift: no drift)" },
  error: { code: 1, meaning: "error (the engine or the platform failed; the message says which resource and why)" },
  drift: { code: 2, meaning: "drift found (the platform differs from the file)" },
  invalid: { code: 3, meaning: "invalid file or arguments (nothing sent)" },
} as const;
export const EXIT = Object.fromEntries(Object.entries(EXIT_CODES).map(([name, { code }]) => [name, code])) as {
  [K in keyof typeof EXIT_CODES]: (typeof EXIT_CODES)[K]["code"];
};

/** Where the CLI finds its state backend and the platform. */
export const ENVIRONMENT = {
  state:
    "PULUMI_BACKEND_URL (or PULUMI_ACCESS_TOKEN: Pulumi Cloud); else a local file backend in ./.vplatform/state, whatever `pulumi login` says",
  platform: "VPLATFORM_ENDPOINT, VPLATFORM_API_KEY (or _USERNAME/_PASSWORD), VPLATFORM_CA_CERT, ...",
} as const;

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

/** "up only", "preview and drift", "preview, drift and up". */
const commandList = (commands: readonly string[]) =>
  commands.length === 1 ? `${commands[0]} only` : `${commands.slice(0, -1).join(", ")} and ${commands.at(-1)}`;

/** An option's usage text: which commands take it, what it does, what applies without it. */
function optionText(name: OptionName): string {
  const o = spec(name);
  const scope = o.commands ? `${o.commands.join(", ")}: ` : o.needs ? `with --${o.needs}: ` : "";
  return `${scope}${o.meaning}${o.default ? ` (default: ${o.default})` : ""}`;
}

/** `text` broken into lines of at most `width` characters at spaces. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line];
}

/** The usage's columns: its lines' width, a command's name and an option's label before their text. */
const USAGE_WIDTH = 116;
const COMMAND_WIDTH = 10;
const LABEL_WIDTH = 19;

function usage(): string {
  const commands = COMMANDS.map((c) => `  ${c.padEnd(COMMAND_WIDTH)}${COMMAND_SPECS[c]}`);
  const options = (Object.keys(OPTIONS) as OptionName[]).flatMap((name) => {
    const o = spec(name);
    const label = `--${name}${o.value ? ` ${o.value}` : ""}`;
    const [first, ...rest] = wrap(optionText(name), USAGE_WIDTH - LABEL_WIDTH - 2);
    const indent = " ".repeat(LABEL_WIDTH + 2);
    return label.length < LABEL_WIDTH - 1
      ? [`  ${label.padEnd(LABEL_WIDTH)}${first}`, ...rest.map((l) => indent + l)]
      : [`  ${label}`, ...[first, ...rest].map((l) => indent + l)];
  });
  const exits = Object.values(EXIT_CODES)
    .map(({ code, meaning }) => `${code} ${meaning}`)
    .join(", ");
  return [
    `usage: vplatform env <${COMMANDS.join("|")}> <file.yaml> --stack <name> [options]`,
    "",
    ...commands,
    "",
    "options:",
    ...options,
    "",
    ...wrap(`exit codes: ${exits}`, USAGE_WIDTH),
    ...Object.entries(ENVIRONMENT).map(([what, where]) => `${what}: ${where}`),
  ].join("\n");
}

export const USAGE = usage();

/** node:util's parseArgs options, from OPTIONS. */
const PARSE_OPTIONS = Object.fromEntries(
  (Object.keys(OPTIONS) as OptionName[]).map((name) => {
    const { type, short } = spec(name);
    return [name, { type, ...(short ? { short } : {}) }];
  }),
) as { [K in OptionName]: { type: (typeof OPTIONS)[K]["type"]; short?: string } };

/** Parses the arguments after `vplatform env`; never throws. */
export function parseCliArgs(argv: readonly string[]): ParsedArgs {
  // biome-ignore lint/suspicious/noImplicitAnyLet: typed by its assignment in the try below (control-flow typing)
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], allowPositionals: true, strict: true, options: PARSE_OPTIONS });
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
  for (const name of Object.keys(OPTIONS) as OptionName[]) {
    if (values[name] === undefined) continue;
    const { commands, needs } = spec(name);
    if (commands && !(commands as readonly string[]).includes(command)) return fail(`--${name} applies to ${commandList(commands)}`);
    if (needs && values[needs] === undefined) return fail(`--${name} needs --${needs}`);
  }
  const waitForLock = Number(values["wait-for-lock"] ?? 0);
  if (!Number.isInteger(waitForLock) || waitForLock < 0)
    return fail(`--wait-for-lock needs whole seconds (0 or more), got '${values["wait-for-lock"]}'`);
  const formats = (["json", "markdown", "csv"] as const).filter((f) => values[f]);
  if (formats.length > 1) return fail(`give one of --${formats.join(", --")}, not several`);
  let copy: number | undefined;
  if (values.copy !== undefined) {
    copy = Number(values.copy);
    if (!Number.isInteger(copy) || copy < 1) return fail(`--copy needs a copy number (1 or more), got '${values.copy}'`);
  }
  if (command === "reset" && copy !== undefined && values.all) return fail("give --copy <n> or --all, not both");
  if (command === "reset" && copy === undefined && !values.all)
    return fail("reset needs --copy <n> (one copy) or --all (every copy of the lab): it discards the students' changes");
  const { lab } = values;
  const policyPack = values["policy-pack"];
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
