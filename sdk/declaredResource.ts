import * as pulumi from "@pulumi/pulumi";
import { RESOURCES, RESOURCE_LIST, type ResourceToken } from "../provider/resources";
import type { SdkBehaviour } from "../provider/resources/framework/defineResource";
import { deletedWithItsVm } from "./deletedWithVm";
import { type MachineOwner, ownerOf, withOwnerCopies } from "./machineOwners";
import { dynamicProvider, seed, withMarker, withSecretOutputs } from "./providerShim";
import { claimName, programScope } from "./uniqueNames";
import { type StartStep, planStartAfterHardware } from "./startAfterHardware";
import { START_AFTER_HARDWARE_INPUT } from "../provider/resources/virtualMachine/schema";

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
export function declaredResource(
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
  const options = withSecretOutputs(inputs, outputs, owner ? deletedWithItsVm(owner, opts) : opts);
  return [providers.get(token)!, name, sdk.createMarker === false ? props : withMarker(token, name, props), options, "vplatform", token];
}

/** A resource the SDK declares itself (the program holds no class instance of it). */
class AddedResource extends pulumi.dynamic.Resource {}

/** The step that starts VM `name` once its hardware is attached: a VmPower (deleting it leaves the VM as it is). */
const startStep =
  (name: string): StartStep =>
  (vm, hardware) =>
    new AddedResource(
      ...declaredResource(
        "VmPower",
        `${name}-start`,
        { vm: vm.id, state: "running", [START_AFTER_HARDWARE_INPUT]: true },
        { parent: vm, dependsOn: hardware },
      ),
    );
