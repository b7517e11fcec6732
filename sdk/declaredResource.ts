import * as pulumi from "@pulumi/pulumi";
import { RESOURCES, RESOURCE_LIST, type ResourceToken } from "../provider/resources";
import type { SdkBehaviour } from "../provider/resources/framework/defineResource";
import { deletedWithItsVm } from "./deletedWithVm";
import { type MachineOwner, ownerOf, withOwnerCopies } from "./machineOwners";
import type { InputsByToken } from "./schemaTypes.generated";
import { dynamicProvider, seed, withMarker, withSecretOutputs } from "./providerShim";
import { claimName, programScope } from "./uniqueNames";
import { type StartStep, planStartAfterHardware } from "./startAfterHardware";
import { START_AFTER_HARDWARE_INPUT } from "../provider/schemas/hiddenInputs";

// One provider object per type: Pulumi caches its serialization per object.
const providers: ReadonlyMap<string, pulumi.dynamic.ResourceProvider> = new Map(
  RESOURCE_LIST.map((r) => [r.token, dynamicProvider(r.dynamicFile)]),
);

/** Refuses a name the platform keeps unique where the declaration says, before anything is sent. */
function claimUniqueName(sdk: SdkBehaviour, owner: MachineOwner | undefined, token: string, logical: string, name: unknown): void {
  if (sdk.refuseDuplicateNames === "inProgram") claimName(programScope(), token, name, logical, "in this program");
  if (sdk.refuseDuplicateNames === "onMachine") claimName(owner, token, name, logical, "on the same VM");
}

/**
 * What a class of the SDK hands `pulumi.dynamic.Resource` for a declared
 * resource: its provider, its props (every output named, secret inputs
 * wrapped, the create marker, the VM's copies for hardware) and its options
 * (secret outputs, deleted with its VM), all from the resource's declaration
 * (its `sdk` behaviour among them).
 */
function declaredResource(
  token: ResourceToken,
  name: string,
  args: object,
  opts: pulumi.CustomResourceOptions | undefined,
): [pulumi.dynamic.ResourceProvider, string, Record<string, unknown>, pulumi.CustomResourceOptions | undefined, string, string] {
  const { inputs, outputs, sdk } = RESOURCES[token];
  const given = args as Record<string, unknown>;
  const owner = sdk.onMachine ? ownerOf(given.machine) : undefined;
  claimUniqueName(sdk, owner, token, name, given.name);
  const props = seed(inputs, owner ? withOwnerCopies(given, owner) : given, outputs);
  if (sdk.ownsMachine && given.powerState === "running") props[START_AFTER_HARDWARE_INPUT] = planStartAfterHardware(given, startStep(name));
  const options = withPluginAlias(token, withSecretOutputs(inputs, outputs, owner ? deletedWithItsVm(owner, opts) : opts));
  return [providers.get(token)!, name, sdk.createMarker === false ? props : withMarker(token, name, props), options, "vplatform", token];
}

/**
 * The resource as the plugin's type (`vplatform:index:<token>`) is this one too: a row `pulumi import` took into
 * the stack through the plugin (whose printed code is on this SDK) is taken over with no change, not replaced.
 */
function withPluginAlias(token: string, opts: pulumi.CustomResourceOptions): pulumi.CustomResourceOptions {
  return { ...opts, aliases: [...(opts.aliases ?? []), { type: `vplatform:index:${token}` }] };
}

/** Set by the user to see where a leaked promise was made (Pulumi prints the stacks it captured only then). */
const keepPromiseStacks = () => Boolean(process.env.PULUMI_DEBUG_PROMISE_LEAKS);

/**
 * The base of the SDK's classes. Pulumi's SDK captures a stack trace for each property of a resource it
 * registers, to print them if a promise leaks with PULUMI_DEBUG_PROMISE_LEAKS set; under the language host's
 * source-map support each costs about 0.3 ms, some 60% of a 30-VM program's run (docs/costs.md, "The fixed
 * cost of a command"). Unless that variable is set, the registration captures none: no stack is ever shown
 * from them otherwise (an error thrown by the registration itself keeps its message, without frames).
 */
export class DeclaredResource extends pulumi.dynamic.Resource {
  // Typed by the SDK's own token list: the published declarations reach no file of provider/.
  constructor(token: keyof InputsByToken, name: string, args: object, opts: pulumi.CustomResourceOptions | undefined) {
    const declared = declaredResource(token, name, args, opts);
    const limit = Error.stackTraceLimit;
    if (!keepPromiseStacks()) Error.stackTraceLimit = 0;
    try {
      super(...declared);
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}

/** The step that starts VM `name` once its hardware is attached: a VmPower (deleting it leaves the VM as it is). */
const startStep =
  (name: string): StartStep =>
  (vm, hardware) =>
    new DeclaredResource(
      "VmPower",
      `${name}-start`,
      { vm: vm.id, state: "running", [START_AFTER_HARDWARE_INPUT]: true },
      { parent: vm, dependsOn: hardware },
    );
