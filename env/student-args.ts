import { parseArgs } from "node:util";

// `vplatform student`: what a student runs with their own API key, without the course's stack or state. Declared
// once: the parser, the usage (`vplatform student --help`) and docs/reference/cli.md (scripts/gen-schema.ts) read it.

/** The default snapshot a reset restores: the one a lab's `resetSnapshot: start` takes. */
export const DEFAULT_STUDENT_SNAPSHOT = "start";

export const STUDENT_COMMAND_SPECS = {
  reset:
    "put back every VM your key may change that has a snapshot named --snapshot: killed if it runs, its NICs as the snapshot holds them, restored, powered back as it was",
} as const;
export type StudentCommand = keyof typeof STUDENT_COMMAND_SPECS;
const STUDENT_COMMANDS = Object.keys(STUDENT_COMMAND_SPECS) as StudentCommand[];

export const STUDENT_OPTIONS = {
  endpoint: { type: "string", value: "<url>", meaning: "the platform, https://host[:port]", default: "VPLATFORM_ENDPOINT" },
  snapshot: { type: "string", value: "<name>", meaning: "the snapshot each VM is put back to", default: DEFAULT_STUDENT_SNAPSHOT },
  json: { type: "boolean", meaning: "print the result as JSON on stdout (progress goes to stderr)" },
  help: { type: "boolean", short: "h", meaning: "print the usage" },
} as const satisfies Record<string, { type: "string" | "boolean"; short?: string; value?: string; meaning: string; default?: string }>;

/** Where the key and the rest come from: never the command line (a key there is in the shell's history and `ps`). */
export const STUDENT_ENVIRONMENT = {
  key: "VPLATFORM_API_KEY: your copy's API key (the course leader's roster gives it)",
  trust: "VPLATFORM_CA_CERT: the platform's CA certificate (PEM text or a path), when it is not publicly trusted",
} as const;

export const STUDENT_USAGE = [
  `usage: VPLATFORM_API_KEY=<your key> vplatform student <${STUDENT_COMMANDS.join("|")}> [options]`,
  "",
  ...STUDENT_COMMANDS.map((c) => `  ${c.padEnd(10)}${STUDENT_COMMAND_SPECS[c]}`),
  "",
  "options:",
  ...Object.entries(STUDENT_OPTIONS).map(([name, o]) => {
    const label = `--${name}${"value" in o ? ` ${o.value}` : ""}`;
    return `  ${label.padEnd(19)}${o.meaning}${"default" in o ? ` (default: ${o.default})` : ""}`;
  }),
  "",
  ...Object.values(STUDENT_ENVIRONMENT),
  "exit codes: 0 every VM put back (or left alone: not yours to change), 1 a VM could not be, 3 bad arguments or nothing to put back (nothing sent)",
].join("\n");

export interface StudentArgs {
  command: StudentCommand;
  endpoint?: string;
  snapshot: string;
  json: boolean;
}

export type ParsedStudentArgs = { ok: true; args: StudentArgs } | { ok: false; help: boolean; message: string };

/** Parses the arguments after `vplatform student`; never throws. */
export function parseStudentArgs(argv: readonly string[]): ParsedStudentArgs {
  const options = Object.fromEntries(
    Object.entries(STUDENT_OPTIONS).map(([name, o]) => [name, { type: o.type, ...("short" in o ? { short: o.short } : {}) }]),
  ) as { [K in keyof typeof STUDENT_OPTIONS]: { type: (typeof STUDENT_OPTIONS)[K]["type"] } };
  // biome-ignore lint/suspicious/noImplicitAnyLet: typed by its assignment in the try below (control-flow typing)
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], allowPositionals: true, strict: true, options });
  } catch (e) {
    return { ok: false, help: false, message: (e as Error).message };
  }
  const { values, positionals } = parsed;
  if (values.help) return { ok: false, help: true, message: STUDENT_USAGE };
  const [command, ...extra] = positionals;
  if (!command) return { ok: false, help: false, message: "missing command" };
  if (!(STUDENT_COMMANDS as string[]).includes(command))
    return { ok: false, help: false, message: `unknown command '${command}' (one of ${STUDENT_COMMANDS.join(", ")})` };
  if (extra.length) return { ok: false, help: false, message: `unexpected argument '${extra[0]}'` };
  if (values.snapshot === "") return { ok: false, help: false, message: "--snapshot needs a snapshot's name" };
  return {
    ok: true,
    args: {
      command: command as StudentCommand,
      ...(values.endpoint === undefined ? {} : { endpoint: values.endpoint }),
      snapshot: values.snapshot ?? DEFAULT_STUDENT_SNAPSHOT,
      json: values.json ?? false,
    },
  };
}
