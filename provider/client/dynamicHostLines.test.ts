import * as path from "node:path";
import { showLinesOnResourcesOnce } from "./dynamicHostLines";
import { showProgress } from "./engineLog";

const sdkDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
const grpc = require(require.resolve("@grpc/grpc-js", { paths: [sdkDir] }));
const engrpc = require("@pulumi/pulumi/proto/engine_grpc_pb");
const provproto = require("@pulumi/pulumi/proto/provider_pb");
const emptyproto = require(require.resolve("google-protobuf/google/protobuf/empty_pb", { paths: [sdkDir] }));

interface Logged {
  urn: string;
  message: string;
  ephemeral: boolean;
}

/** An engine whose log service records what it is sent. */
async function fakeEngine(): Promise<{ address: string; logged: Logged[]; close(): void }> {
  const logged: Logged[] = [];
  const server = new grpc.Server();
  server.addService(engrpc.EngineService, {
    log(call: { request: { getUrn(): string; getMessage(): string; getEphemeral(): boolean } }, done: (e: null, r: unknown) => void) {
      logged.push({ urn: call.request.getUrn(), message: call.request.getMessage(), ephemeral: call.request.getEphemeral() });
      done(null, new emptyproto.Empty());
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err: Error | null, p: number) =>
      err ? reject(err) : resolve(p),
    ),
  );
  return { address: `127.0.0.1:${port}`, logged, close: () => server.forceShutdown() };
}

/** What the dynamic-provider host does with a create request: reads its properties, then calls the provider. */
async function hostCreate(urn: string, provider: () => Promise<void>): Promise<void> {
  const req = new provproto.CreateRequest();
  req.setUrn(urn);
  req.getProperties();
  await Promise.resolve();
  await provider();
}

describe("the provider's lines in the dynamic-provider host", () => {
  test("go to the engine on the resource of the request being served; a progress line is ephemeral", async () => {
    const engine = await fakeEngine();
    try {
      // The host module: @pulumi/pulumi's cmd/dynamic-provider, whose ../../proto is the SDK's.
      const host = { require: (p: string) => require(path.join(sdkDir, "cmd", "dynamic-provider", p)) } as NodeJS.Module;
      showLinesOnResourcesOnce(["node", path.join(sdkDir, "cmd", "dynamic-provider", "index.js"), engine.address], host);
      const work = (what: string) => async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        console.log(`${what} restarted`);
        showProgress(`waiting for ${what}`);
      };
      await Promise.all([hostCreate("urn:web", work("web")), hostCreate("urn:db", work("db"))]);
      for (let i = 0; i < 100 && engine.logged.length < 4; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(engine.logged).toHaveLength(4);
      expect(engine.logged).toEqual(
        expect.arrayContaining([
          { urn: "urn:web", message: "web restarted", ephemeral: false },
          { urn: "urn:web", message: "waiting for web", ephemeral: true },
          { urn: "urn:db", message: "db restarted", ephemeral: false },
          { urn: "urn:db", message: "waiting for db", ephemeral: true },
        ]),
      );
    } finally {
      engine.close();
    }
  });
});
