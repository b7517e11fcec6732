import { z } from "zod";
import { keySchema, providerField, timeoutsSchema } from "./common";

export const vmSnapshotShape = {
  vm: providerField(keySchema, "VM key of the VM to snapshot (vm.id); changing it replaces the snapshot", { onChange: "replace" }),
  name: providerField(z.string().min(1).max(128), "Snapshot name (changing it replaces the snapshot)", { onChange: "replace" }),
  description: providerField(z.string().optional(), "Description (changing it replaces the snapshot)", { onChange: "replace" }),
  quiesce: providerField(z.boolean().optional(), "Quiesce the guest file systems while snapshotting", { onChange: "replace" }),
  restoreTrigger: providerField(
    z.union([z.string(), z.number()]).optional(),
    "Restore is an explicit action: changing this value (e.g. to a timestamp) restores the VM to this snapshot.", { onChange: "action" },
  ),
  timeouts: timeoutsSchema,
};

export const vmSnapshotInputsSchema = z.strictObject(vmSnapshotShape);
export type VmSnapshotInputs = z.output<typeof vmSnapshotInputsSchema>;
