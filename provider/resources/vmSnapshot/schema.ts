import { z } from "zod";
import { apiBodyOf, apiField, keySchema, providerField, timeoutsSchema } from "../../schemas/common";
import { machineKeyOutput, optionalOutput } from "../../schemas/outputs";

/** The platform table its rows live in. */

export const vmSnapshotShape = {
  vm: providerField(keySchema, "VM key of the VM to snapshot (vm.id); changing it replaces the snapshot", { onChange: "replace" }),
  name: apiField(z.string().min(1).max(128), "name", "string", "Snapshot name (changing it replaces the snapshot)", {
    onChange: "replace",
  }),
  description: apiField(z.string().optional(), "description", "string", "Description (changing it replaces the snapshot)", {
    onChange: "replace",
  }),
  quiesce: apiField(z.boolean().optional(), "quiesce", "stringBool", "Quiesce the guest file systems while snapshotting", {
    onChange: "replace",
  }),
  restoreTrigger: providerField(
    z
      .union([z.string(), z.number()], { error: () => "must be a string or a number (e.g. a timestamp): changing it restores the VM" })
      .optional(),
    "Restore is an explicit action: changing this value (e.g. to a timestamp) restores the VM to this snapshot.",
    { onChange: "action" },
  ),
  timeouts: timeoutsSchema,
};

export const vmSnapshotInputsSchema = z.strictObject(vmSnapshotShape);
export type VmSnapshotInputs = z.output<typeof vmSnapshotInputsSchema>;
export const vmSnapshotOutputs = {
  machineKey: machineKeyOutput("the snapshotted VM"),
  waitDurations: optionalOutput(
    "string",
    'How long the platform\'s machine changes took as the provider saw them up to this snapshot (ms per kind, JSON: {"clone":51000,"power-on":21000}; "<kind> at most": over by the first read, at that read); set when it is taken, then kept. `vplatform env reset` expects a first restore with power-on to take about a clone plus a power-on',
  ),
};

/** `params` of the vm_actions snapshot action (the VM is the action's target, not a param). */
export const toVmSnapshotApiParams = (inputs: Partial<VmSnapshotInputs>) => apiBodyOf(vmSnapshotShape, inputs as Record<string, unknown>);
