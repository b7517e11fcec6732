import { AsyncLocalStorage } from "node:async_hooks";
import * as path from "node:path";
import { format } from "node:util";

/**
 * The provider's lines are console lines: console.log for what stays worth
 * reading (a restart, a diff warning), console.info for how a wait is going
 * (`showProgress`). Printed, the engine shows both on the Stack, and keeps
 * both under Diagnostics. Once they go to the engine's log service instead,
 * each is shown on the resource of the operation that wrote it, and a progress
 * line is ephemeral: shown while the resource works, not kept.
 */
const currentUrn = new AsyncLocalStorage<string>();

/** Runs an operation of the resource `urn`: its console lines are shown on that resource. */
export function runForResource<T>(urn: string, work: () => Promise<T>): Promise<T> {
  return currentUrn.run(urn, work);
}

/** Runs `work` with its console lines shown on the Stack: for what concerns the whole run, not one resource. */
export function forTheWholeRun<T>(work: () => T): T {
  return currentUrn.run("", work);
}

/** From here on (until its async work ends) the running code's console lines are shown on the resource `urn`. */
export function enterResource(urn: string): void {
  currentUrn.enterWith(urn);
}

/** A line that says how a wait is going: on the engine, shown while its resource works and not kept. */
export function showProgress(line: string): void {
  console.info(line);
}

/** The engine's address among a provider process's arguments (flags such as `--tracing <url>` may come first). */
export function engineAddressIn(args: string[]): string | undefined {
  return args.filter((a, i) => !a.startsWith("-") && args[i - 1] !== "--tracing")[0];
}

export function sendConsoleToEngine(engineAddress: string): void {
  const sdkDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
  const grpc = require(require.resolve("@grpc/grpc-js", { paths: [sdkDir] }));
  const engrpc = require("@pulumi/pulumi/proto/engine_grpc_pb");
  const engproto = require("@pulumi/pulumi/proto/engine_pb");
  const engine = new engrpc.EngineClient(engineAddress, grpc.credentials.createInsecure());
  const toStderr = console.error.bind(console);
  // One at a time, so lines arrive in the order written.
  let previous: Promise<void> = Promise.resolve();
  const send =
    (ephemeral: boolean) =>
    (...args: unknown[]) => {
      const req = new engproto.LogRequest();
      req.setSeverity(engproto.LogSeverity.INFO);
      req.setMessage(format(...args));
      req.setUrn(currentUrn.getStore() ?? "");
      req.setEphemeral(ephemeral);
      previous = previous.then(
        () =>
          new Promise<void>((resolve) =>
            engine.log(req, (err: Error | null) => {
              if (err) toStderr(format(...args));
              resolve();
            }),
          ),
      );
    };
  console.log = send(false);
  console.info = send(true);
}
