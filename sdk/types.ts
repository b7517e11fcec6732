import * as pulumi from "@pulumi/pulumi";

declare const machineKeyBrand: unique symbol;
/**
 * The key of a VM's MACHINE (what drives, NICs and devices attach to). It is a
 * different number from the VM key (`vm.id`); the brand makes passing `vm.id`
 * where a machine key belongs a compile error.
 */
export type MachineKey = string & { readonly [machineKeyBrand]: true };

/** For a machine key known only as text (e.g. from a look-up or another stack). */
export const machineKey = (key: string | number): MachineKey => String(key) as MachineKey;

/** Resource args: every input may be a promise or output. */
export type Args<T> = { [K in keyof T]: pulumi.Input<T[K]> };

/** Typed outputs, merged into each resource class. */
export type Outputs<T> = { readonly [K in keyof T]-?: pulumi.Output<T[K]> };
