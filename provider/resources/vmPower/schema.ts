import { z } from "zod";
import { keySchema, providerField, timeoutsSchema } from "../../schemas/common";
import { machineKeyOutput, statusOutputs } from "../../schemas/outputs";

/**
 * The power state of a VM as a resource of its own, for when it must follow
 * other resources: a VM that gets passthrough devices (which need it stopped)
 * is started once they are attached, instead of started and restarted.
 */
export const vmPowerShape = {
  vm: providerField(keySchema, "VM key (vm.id) whose power state this manages; changing it replaces the resource", { onChange: "replace" }),
  state: providerField(z.enum(["running", "stopped"]), "Desired power state, read back from the live machine status", {
    onChange: "action",
  }),
  timeouts: timeoutsSchema,
};

export const vmPowerInputsSchema = z.strictObject(vmPowerShape);
export type VmPowerInputs = z.output<typeof vmPowerInputsSchema>;
export const vmPowerOutputs = { machineKey: machineKeyOutput("the VM"), ...statusOutputs };
