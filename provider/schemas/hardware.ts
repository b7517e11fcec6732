import { z } from "zod";
import { apiField, fieldMeta, keySchema, providerField } from "./common";

export const POWER_CYCLE_POLICIES = ["restart", "refuse"] as const;
export type PowerCyclePolicy = (typeof POWER_CYCLE_POLICIES)[number];

/**
 * What every drive, NIC and device knows of the VM it belongs to. The VM's
 * policy and key travel as inputs (the SDK fills them from the VM whose
 * machineKey is given), so a `--target` run or a preview that never diffs the
 * VM still follows them.
 */
export const machineOwnerShape = (noun: string) => ({
  machine: apiField(keySchema, "machine", "key", `MACHINE key of the VM (vm.machineKey, not vm.id); changing it replaces the ${noun}`, {
    onChange: "replace",
    createOnly: true,
  }),
  vm: providerField(
    keySchema.optional(),
    "VM key (vm.id) of the machine's VM; set by the SDK from the VM whose machineKey is given. A preview of an in-place update of that VM shows its machineKey as unknown: a known, unchanged vm tells that the machine stays.",
  ),
  powerCyclePolicy: providerField(
    z.enum(POWER_CYCLE_POLICIES).optional(),
    `The VM's powerCyclePolicy, followed when a running VM cannot take this ${noun} live (no hotplug; passthrough devices never): set by the SDK from the VM whose machineKey is given; unset means restart.`,
  ),
});

type OwnerField = keyof ReturnType<typeof machineOwnerShape>;

/** The owner fields the SDK copies from the VM and the provider never sends (`vm`, `powerCyclePolicy`): its bookkeeping. */
export const OWNER_INPUTS: ReadonlySet<string> = new Set(
  Object.entries(machineOwnerShape("hardware")).flatMap(([field, schema]) => (fieldMeta(schema)?.api === undefined ? [field] : [])),
);

/** A hardware shape without what ties it to its VM: for hardware nested under its VM (environment files). */
export function withoutMachineOwner<S extends Record<OwnerField, unknown>>(shape: S): Omit<S, OwnerField> {
  const { machine: _m, vm: _v, powerCyclePolicy: _p, ...rest } = shape;
  return rest;
}
