import * as pulumi from "@pulumi/pulumi";
import { vmPowerInputsSchema } from "../provider/schemas/vmPower";
import { seed, shimProvider } from "./providerShim";
import type { VmPowerInputs, VmPowerValues } from "./schemaTypes.generated";
import { Args, MachineKey, Outputs } from "./types";

export type VmPowerArgs = Args<VmPowerInputs>;

const provider = shimProvider("vmPower");

/**
 * A VM's power state as its own resource, so it can come after others:
 * `new VmPower("web-power", { vm: web.id, state: "running" }, { dependsOn: [gpu] })`
 * starts the VM once its passthrough GPU is attached. Leave the VM's own
 * `powerState` unset; deleting this resource leaves the VM as it is.
 */
export class VmPower extends pulumi.dynamic.Resource {
  declare readonly machineKey: pulumi.Output<MachineKey>;
  declare readonly status: pulumi.Output<string>;
  declare readonly running: pulumi.Output<boolean>;
  constructor(name: string, args: VmPowerArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, name, seed(vmPowerInputsSchema, args, ["machineKey", "status", "running"]), opts, "vplatform", "VmPower");
  }
}
export interface VmPower extends Outputs<VmPowerValues> {}
