import { AsyncLocalStorage } from "node:async_hooks";
import * as path from "node:path";
import * as provider from "@pulumi/pulumi/provider";
import type { CheckFailure } from "../resources/framework/checkInputs";
import { dropHostErrorEchoesOnce } from "../resources/framework/hostErrorEcho";
import { engineAddressIn, sendConsoleToEngine } from "../client/engineLog";
import { type ComponentConstruct, VplatformProvider } from "./vplatformProvider";

// biome-ignore lint/suspicious/noExplicitAny: a gRPC request of any of the provider protocol's messages
type Call = { request: any };
type Callback = (err: unknown, value?: unknown) => void;
type Handler = (call: Call, callback: Callback) => unknown;
type ServiceImpl = Record<string, Handler>;

/** The modules the SDK's server itself uses (its own dependencies, whatever the install layout). */
const sdkDependency = (name: string) =>
  require(require.resolve(name, { paths: [path.dirname(require.resolve("@pulumi/pulumi/package.json"))] }));
const provproto = require("@pulumi/pulumi/proto/provider_pb");
const structproto = sdkDependency("google-protobuf/google/protobuf/struct_pb");

/**
 * @pulumi/pulumi's provider server (`provider.main`) answers Configure without
 * handing the provider its settings, leaves CheckConfig unimplemented and drops
 * the timeout (customTimeouts) of create/update/delete. These three are added
 * to the service it registers; every other method is the SDK's own.
 */
export async function serve(args: string[], components: Record<string, ComponentConstruct> = {}): Promise<void> {
  dropHostErrorEchoesOnce();
  const timeouts = new AsyncLocalStorage<number>();
  const plugin = new VplatformProvider(() => timeouts.getStore() ?? 0, undefined, undefined, undefined, components);
  const grpc = sdkDependency("@grpc/grpc-js");
  const addService = grpc.Server.prototype.addService;
  grpc.Server.prototype.addService = function (service: unknown, impl: ServiceImpl) {
    grpc.Server.prototype.addService = addService;
    return addService.call(this, service, extendService(impl, plugin, timeouts));
  };
  await provider.main(plugin, args);
  // The port is printed: from now on console lines go to the engine.
  const engineAddress = engineAddressIn(args);
  if (engineAddress) sendConsoleToEngine(engineAddress);
}

function extendService(impl: ServiceImpl, plugin: VplatformProvider, timeouts: AsyncLocalStorage<number>): ServiceImpl {
  const withTimeout =
    (name: string): Handler =>
    (call, callback) =>
      timeouts.run(call.request.getTimeout() ?? 0, () => impl[name].call(impl, call, callback));
  // The SDK's methods live on the prototype of `impl`: bind them, and override only these.
  const extended: ServiceImpl = Object.create(impl);
  extended.configure = (call, callback) => {
    try {
      plugin.configure(call.request.getArgs()?.toJavaScript() ?? {});
    } catch (err) {
      return callback(err);
    }
    const resp = new provproto.ConfigureResponse();
    // Secrets in, as the engine requires of a plugin that constructs components (the provider unwraps them and
    // answers the secrets the engine would have kept); a component's inputs keep the outputs inside them.
    resp.setAcceptsecrets(true);
    resp.setAcceptoutputs(true);
    resp.setAcceptresources(false);
    callback(undefined, resp);
  };
  extended.checkConfig = (call, callback) => {
    try {
      const resp = new provproto.CheckResponse();
      resp.setInputs(call.request.getNews());
      resp.setFailuresList(plugin.checkConfig(call.request.getNews().toJavaScript()).map((f: CheckFailure) => checkFailure(provproto, f)));
      callback(undefined, resp);
    } catch (err) {
      callback(err);
    }
  };
  for (const name of ["create", "update", "delete"]) extended[name] = withTimeout(name);
  // An import reads with no properties at all, which the SDK's read does not expect.
  extended.read = (call, callback) => {
    if (!call.request.getProperties()) call.request.setProperties(new structproto.Struct());
    return impl.read.call(impl, call, callback);
  };
  return extended;
}

// biome-ignore lint/suspicious/noExplicitAny: the provider protocol's generated (untyped JavaScript) message classes
function checkFailure(provproto: any, f: CheckFailure) {
  const failure = new provproto.CheckFailure();
  failure.setProperty(f.property);
  failure.setReason(f.reason);
  return failure;
}
