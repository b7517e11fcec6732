/**
 * What the CLI says when the engine fails. The Automation API's own message is the whole command result
 * (`code: …  stdout: …  stderr: …  err?: …`), the engine's error in it twice: for a cause the user fixes with a
 * setting, the CLI says that setting; for any other, the engine's own `error:` lines, each once.
 */
import { NO_SIDECAR, repairCommand, tagsRepairCommand } from "./file-state";

/** The engine's words when a self-managed backend's stack needs a passphrase and none is set (stack init or any later run). */
const NO_PASSPHRASE = /passphrase must be set with PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE/;

export const PASSPHRASE_NEEDED =
  "the stack's secrets need a passphrase, and none is set: a self-managed backend (`pulumi login` to file://, s3://, " +
  "postgres://, …) encrypts each stack's secrets with one. Set PULUMI_CONFIG_PASSPHRASE to it, or " +
  "PULUMI_CONFIG_PASSPHRASE_FILE to a file holding it (for a new stack, choose one and keep it: every later run needs the same).";

/** The engine's words when a state file's sidecar (`.attrs`) is empty or cut short: a kill inside its write. */
const DAMAGED_SIDECAR = /failed to load checkpoint: (unexpected )?EOF/;

/** What to do about a damaged sidecar, for the file backend in `dir`. */
export const damagedSidecarMessage = (dir = "<state directory>") =>
  "the file backend's state cannot be read: a killed run left a metadata sidecar (.attrs) empty or cut short. " +
  `With no update running, \`${repairCommand(dir)}\` repairs it (the state files are whole; \`vplatform env\` does this itself), ` +
  `and a backend URL ending in ?${NO_SIDECAR} writes no sidecar again.`;

/** The engine's words when a stack's tags file (`<stack>.pulumi-tags`) is empty or cut short. */
const DAMAGED_TAGS = /failed to load stack tags: failed to (unmarshal|read) stack tags/;

/** What to do about a damaged stack tags file, for the file backend in `dir`. */
export const damagedTagsMessage = (dir = "<state directory>") =>
  "the file backend's stack tags cannot be read: a stack's tags file is empty or cut short. " +
  `With no update running, \`${tagsRepairCommand(dir)}\` repairs it (its tags are lost: the engine reads a missing file as no tags; ` +
  "`vplatform env` does this itself).";

/** The one-sentence message for an engine error the user fixes with a setting; undefined for any other. `stateDir`: a file backend's. */
export function knownEngineError(err: unknown, stateDir?: string): string | undefined {
  const text = err instanceof Error ? err.message : String(err);
  if (NO_PASSPHRASE.test(text)) return PASSPHRASE_NEEDED;
  if (DAMAGED_SIDECAR.test(text)) return damagedSidecarMessage(stateDir);
  if (DAMAGED_TAGS.test(text)) return damagedTagsMessage(stateDir);
  return undefined;
}

/** The command result the Automation API's CommandError carries. */
type CommandResult = { stderr?: unknown; stdout?: unknown; err?: unknown };

/** The engine's `error: …` lines of a command's output, each once, without the prefix the CLI adds back. */
function engineErrorLines(output: unknown): string[] {
  if (typeof output !== "string") return [];
  const lines = output.split("\n").map((l) => l.trim());
  return [...new Set(lines.filter((l) => l.startsWith("error: ")).map((l) => l.slice("error: ".length)))];
}

/** The message for any error of an engine command: a known cause's sentence, else the engine's own error lines, once. */
export function engineErrorMessage(err: unknown, stateDir?: string): string {
  const known = knownEngineError(err, stateDir);
  if (known) return known;
  const result = (err as { commandResult?: CommandResult } | undefined)?.commandResult;
  // The engine says why it stopped on stderr; its stdout holds the run (the resources' own errors included).
  const lines = result ? [engineErrorLines(result.stderr), engineErrorLines(result.stdout)].find((l) => l.length) : undefined;
  if (lines) return lines.join("\n");
  const killed = killedBy(result);
  if (killed) return engineKilledMessage(killed);
  return err instanceof Error ? err.message : String(err);
}

/** The signal that killed the engine, when it was killed (the Automation API then holds its runner's error). */
function killedBy(result: CommandResult | undefined): string | undefined {
  const err = result?.err as { signal?: unknown } | undefined;
  if (typeof err?.signal === "string") return err.signal;
  return /was killed with (SIG[A-Z]+)/.exec(typeof result?.stderr === "string" ? result.stderr : "")?.[1];
}

/** What a killed engine means, instead of the Automation API's command result. */
export const engineKilledMessage = (signal: string) =>
  `the engine (pulumi) was killed (${signal}) before it finished, by something outside it (a job's timeout, the OOM ` +
  "killer): what it recorded is kept, and the resources it had under way are taken over by the next run. Run the " +
  "command again; if it says the stack is locked, run the `pulumi cancel` it prints first.";
