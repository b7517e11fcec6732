import type * as pulumi from "@pulumi/pulumi";
import { RESOURCES, RESOURCE_LIST, type ResourceToken } from "../provider/resources";
import { dynamicProvider, seed, withMarker, withSecretOutputs } from "./providerShim";

// One provider object per type: Pulumi caches its serialization per object.
const providers: ReadonlyMap<string, pulumi.dynamic.ResourceProvider> = new Map(RESOURCE_LIST.map((r) => [r.token, dynamicProvider(r.dynamicFile)]));

/**
 * What a class of the SDK hands `pulumi.dynamic.Resource` for a declared
 * resource: its provider, its props (every output named, secret inputs
 * wrapped, the create marker unless `marked` is false) and its options
 * (secret outputs), all from the resource's declaration.
 */
export function declaredResource(
  token: ResourceToken,
  name: string,
  args: object,
  opts: pulumi.CustomResourceOptions | undefined,
  marked = true,
): [pulumi.dynamic.ResourceProvider, string, Record<string, unknown>, pulumi.CustomResourceOptions | undefined, string, string] {
  const { inputs, outputs } = RESOURCES[token];
  const props = seed(inputs, args as Record<string, unknown>, outputs);
  return [providers.get(token)!, name, marked ? withMarker(token, name, props) : props, withSecretOutputs(inputs, opts), "vplatform", token];
}
