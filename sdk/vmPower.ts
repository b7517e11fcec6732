import * as pulumi from "@pulumi/pulumi";
import { vmPowerInputsSchema, vmPowerOutputs } from "../provider/schemas/vmPower";
import { seed, dynamicProvider } from "./providerShim";
import type { VmPowerComputed, VmPowerInputs, VmPowerValues } from "./schemaTypes.generated";
import { Args, Computed, Outputs } from "./types";

export type VmPowerArgs = Args<VmPowerInputs>;

const provider = dynamicProvider("vmPower");

/**
 * A VM's power state as its own resource, so it can come after others:
 * `new VmPower("web-power", { vm: web.id, state: "running" }, { dependsOn: [gpu] })`
 * starts the VM once its passthrough GPU is attached. Leave the VM's own
 * `powerState` unset; deleting this resource leaves the VM as it is.
 */
export class VmPower extends pulumi.dynamic.Resource {
  constructor(name: string, args: VmPowerArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, name, seed(vmPowerInputsSchema, args, vmPowerOutputs), opts, "vplatform", "VmPower");
  }
}
export interface VmPower extends Outputs<VmPowerValues & Computed<VmPowerComputed>> {}
