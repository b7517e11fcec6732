/**
 * Errors of the engine that the CLI can say in one sentence. The Automation API's own message is the whole
 * command result (`code: …  stdout: …  stderr: …  err?: …`), the engine's error in it twice: for a cause the
 * user fixes with a setting, the CLI says that setting instead.
 */

/** The engine's words when a self-managed backend's stack needs a passphrase and none is set (stack init or any later run). */
const NO_PASSPHRASE = /passphrase must be set with PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE/;

export const PASSPHRASE_NEEDED =
  "the stack's secrets need a passphrase, and none is set: a self-managed backend (`pulumi login` to file://, s3://, " +
  "postgres://, …) encrypts each stack's secrets with one. Set PULUMI_CONFIG_PASSPHRASE to it, or " +
  "PULUMI_CONFIG_PASSPHRASE_FILE to a file holding it (for a new stack, choose one and keep it: every later run needs the same).";

/** The one-sentence message for an engine error the user fixes with a setting; undefined for any other. */
export function knownEngineError(err: unknown): string | undefined {
  const text = err instanceof Error ? err.message : String(err);
  if (NO_PASSPHRASE.test(text)) return PASSPHRASE_NEEDED;
  return undefined;
}
