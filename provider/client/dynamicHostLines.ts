import { engineAddressIn, enterResource, sendConsoleToEngine } from "./engineLog";

/**
 * @pulumi/pulumi's dynamic-provider host reads each request's URN from the engine but hands the provider only
 * the properties, and prints the provider's console lines, which the engine then shows on the Stack. Loaded into
 * that host, the provider takes the URN from the request itself: the host reads every request's olds, news,
 * properties or id before it calls the provider, and the first such read enters the request's URN for the rest
 * of the call. The console lines then go to the engine's log service, each on its resource (engineLog.ts).
 */
const REQUESTS = ["CheckRequest", "DiffRequest", "CreateRequest", "ReadRequest", "UpdateRequest", "DeleteRequest"];
const FIRST_READS = ["getOlds", "getNews", "getProperties", "getId"];

type RequestProto = Record<string, (this: { getUrn(): string }, ...args: unknown[]) => unknown>;

let attached = false;

/** Once per process, from the dynamic door's first configure; in any other process (tests, the plugin) it does nothing. */
export function showLinesOnResourcesOnce(argv: string[] = process.argv, host: NodeJS.Module | undefined = require.main): void {
  if (attached) return;
  attached = true;
  if (!/dynamic-provider/.test(argv[1] ?? "") || !host) return;
  const engineAddress = engineAddressIn(argv.slice(2));
  if (!engineAddress) return;
  const messages = hostMessages(host);
  if (!messages) return;
  for (const request of REQUESTS) {
    const proto = messages[request]?.prototype;
    for (const read of FIRST_READS) {
      const original = proto?.[read];
      if (!proto || typeof original !== "function") continue;
      proto[read] = function (...args) {
        enterResource(this.getUrn());
        return original.apply(this, args);
      };
    }
  }
  sendConsoleToEngine(engineAddress);
}

/**
 * The host's own copy of the messages (the one its requests are made of); none in a layout of @pulumi/pulumi
 * without it, where the lines stay on the Stack rather than the run failing.
 */
function hostMessages(host: NodeJS.Module): Record<string, { prototype: RequestProto } | undefined> | undefined {
  try {
    return host.require("../../proto/provider_pb");
  } catch {
    return undefined;
  }
}
