import { CommandError } from "@pulumi/pulumi/automation";
import { PASSPHRASE_NEEDED, engineErrorMessage, engineKilledMessage, knownEngineError } from "./engine-errors";

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

/** The Automation API's error as it throws it: a CommandError whose result holds the command's output. */
const commandError = (stdout: string, stderr: string) =>
  new (CommandError as unknown as new (r: object) => Error)({
    code: 255,
    stdout,
    stderr,
    err: new Error(`Command failed with exit code 255\n${stderr}`),
    toString: () => `code: 255\n stdout: ${stdout}\n stderr: ${stderr}\n err?: Error: Command failed\n${stderr}\n`,
  });

describe("any engine error is said once, in the engine's own words, without the command result around it", () => {
  test("the engine's error lines of stderr, each once, without their prefix", () => {
    const stderr = `Command failed with exit code 255: ${PULUMI} stack select --stack dev\nerror: no stack named 'dev' found\nerror: no stack named 'dev' found\n`;
    expect(engineErrorMessage(commandError("", stderr))).toBe("no stack named 'dev' found");
  });

  test("a run whose stderr says nothing: the error lines of its output, the resources' own included", () => {
    const stdout = "Previewing update (dev):\n\nDiagnostics:\n  pulumi:pulumi:Stack (lab-dev):\n    error: preview failed\n";
    expect(engineErrorMessage(commandError(stdout, ""))).toBe("preview failed");
  });

  test("a known cause is its sentence; an error that is no command's keeps its message", () => {
    const stderr = "error: passphrase must be set with PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE environment variables";
    expect(engineErrorMessage(commandError("", stderr))).toBe(PASSPHRASE_NEEDED);
    expect(engineErrorMessage(new Error("spawn pulumi ENOENT"))).toBe("spawn pulumi ENOENT");
  });

  test("nothing of the command result's frame is left", () => {
    const message = engineErrorMessage(commandError("some output\n", "error: the stack is locked\n"));
    expect(message).not.toMatch(/code: |stdout|stderr|err\?|Command failed/);
  });
});

describe("a checkpoint whose sidecar a kill left empty", () => {
  test("the message names the file backend's directory in the repair command", () => {
    const err = automationError("up --stack dev", "error: failed to load checkpoint: EOF");
    expect(engineErrorMessage(err, "/srv/team/.vplatform/state")).toContain(
      "`find /srv/team/.vplatform/state/.pulumi \\( -name '*.attrs' -o -name '*.tmp' \\) -delete` repairs it",
    );
  });
});

describe("an engine killed from outside", () => {
  test("is said as such, with what to do, not as the Automation API's command result", () => {
    const killed = Object.assign(new Error("Command was killed with SIGKILL (Forced termination): pulumi up --yes"), { signal: "SIGKILL" });
    const err = new (CommandError as unknown as new (r: object) => Error)({
      code: -2,
      stdout: "",
      stderr: killed.message,
      err: killed,
      toString: () => `code: -2\n stdout: \n stderr: ${killed.message}\n err?: ${killed}\n`,
    });
    const message = engineErrorMessage(err);
    expect(message).toBe(engineKilledMessage("SIGKILL"));
    expect(message).toContain("the engine (pulumi) was killed (SIGKILL) before it finished");
    expect(message).not.toMatch(/code: |stdout|err\?/);
  });
});
