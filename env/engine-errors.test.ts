import { PASSPHRASE_NEEDED, knownEngineError } from "./engine-errors";

const PULUMI = "/work/.tools/pulumi/bin/pulumi";
/** The Automation API's error, as it threw it (`pulumi login file://…`, no passphrase set), around the engine's `error:` line. */
const automationError = (command: string, engineError: string) =>
  new Error(
    `code: -2\n stdout: \n stderr: Command failed with exit code 1: ${PULUMI} ${command}\n${engineError}\n` +
      ` err?: Error: Command failed with exit code 1: ${PULUMI} ${command}\n${engineError}\n`,
  );

describe("no passphrase for a self-managed backend's stack: one sentence naming the settings, not the raw error twice", () => {
  test.each([
    [
      "a new stack (stack init)",
      automationError(
        "stack init dev --non-interactive",
        "error: could not create secrets manager for new stack: passphrase must be set with PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE environment variables",
      ),
    ],
    [
      "an existing stack (preview)",
      automationError(
        "preview --parallel 32 --color never --stack dev --non-interactive",
        "error: getting stack configuration: get stack secrets manager: passphrase must be set with PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE environment variables",
      ),
    ],
  ])("%s", (_when, err) => {
    const message = knownEngineError(err);
    expect(message).toBe(PASSPHRASE_NEEDED);
    expect(message).toContain("PULUMI_CONFIG_PASSPHRASE to it, or PULUMI_CONFIG_PASSPHRASE_FILE");
    expect(message).not.toMatch(/code: |stderr|err\?/);
  });
});

describe("any other engine error is left as the engine said it", () => {
  test("a failed preview, a wrong passphrase", () => {
    expect(knownEngineError(automationError("preview --stack dev", "error: preview failed"))).toBeUndefined();
    expect(
      knownEngineError(
        automationError("preview --stack dev", "error: getting secrets manager: incorrect passphrase, please set PULUMI_CONFIG_PASSPHRASE"),
      ),
    ).toBeUndefined();
  });
});
