import * as pulumi from "@pulumi/pulumi";
import { declaredResource } from "./declaredResource";
import type { VmPowerComputed, VmPowerInputs, VmPowerValues } from "./schemaTypes.generated";
import { Args, Computed, Outputs } from "./types";

export type VmPowerArgs = Args<VmPowerInputs>;

/**
 * A VM's power state as its own resource, so it can come after others:
 * `new VmPower("web-power", { vm: web.id, state: "running" }, { dependsOn: [gpu] })`
 * starts the VM once its passthrough GPU is attached. Leave the VM's own
 * `powerState` unset; deleting this resource leaves the VM as it is.
 */
export class VmPower extends pulumi.dynamic.Resource {
  constructor(name: string, args: VmPowerArgs, opts?: pulumi.CustomResourceOptions) {
    // No create marker: a VmPower makes no row.
    super(...declaredResource("VmPower", name, args, opts, false));
  }
}
export interface VmPower extends Outputs<VmPowerValues & Computed<VmPowerComputed>> {}
