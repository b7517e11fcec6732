import { AsyncLocalStorage } from "node:async_hooks";
import * as path from "node:path";
import { format } from "node:util";

/**
 * The provider's progress lines and diff warnings are console.log lines: a
 * dynamic provider's console output is what the engine shows. A plugin's is
 * not shown, so once the plugin serves, its console.log goes to the engine's
 * log service instead, attached to the resource of the operation that wrote it.
 */
const currentUrn = new AsyncLocalStorage<string>();

/** Runs an operation of the resource `urn`: its console lines are shown on that resource. */
export function runForResource<T>(urn: string, work: () => Promise<T>): Promise<T> {
  return currentUrn.run(urn, work);
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
  console.log = (...args: unknown[]) => {
    const req = new engproto.LogRequest();
    req.setSeverity(engproto.LogSeverity.INFO);
    req.setMessage(format(...args));
    req.setUrn(currentUrn.getStore() ?? "");
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
}
