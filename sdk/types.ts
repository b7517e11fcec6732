import type * as pulumi from "@pulumi/pulumi";

/**
 * The key of a VM's MACHINE (what drives, NICs and devices attach to). It is a
 * different number from the VM key (`vm.id`); the brand makes passing `vm.id`
 * where a machine key belongs a compile error, and its name is the fix, since the
 * compiler's message ends with it.
 */
export type MachineKey = string & { readonly "MachineKey: pass vm.machineKey (not vm.id), or vp.machineKey(key) for a known key": true };

/** For a machine key known only as text (e.g. from a look-up or another stack). */
export const machineKey = (key: string | number): MachineKey => String(key) as MachineKey;

type Primitive = string | number | boolean | null | undefined;

/**
 * An input at any depth: the whole value, or any field or item inside it, may
 * be a promise or an output (`cloneFrom: { vm: template.id }`). One Input wraps
 * the whole union, so an Output<boolean> fits a boolean field (distributing it
 * would ask for Output<true> | Output<false>) and `string | string[]` takes
 * outputs as items; a branded MachineKey stays branded.
 */
export type DeepInput<T> = pulumi.Input<Lifted<T>>;
type Lifted<T> = [T] extends [Primitive]
  ? T
  : T extends Primitive
    ? T
    : T extends readonly (infer U)[]
      ? DeepInput<U>[]
      : T extends object
        ? { [K in keyof T]: DeepInput<T[K]> }
        : T;

/** Resource args: every input, at any depth, may be a promise or output. */
export type Args<T> = { [K in keyof T]: DeepInput<T[K]> };

/** Typed outputs, merged into each resource class. */
export type Outputs<T> = { readonly [K in keyof T]-?: pulumi.Output<T[K]> };

/** A resource's declared computed outputs (provider/schemas, as generated plain types) as the SDK types them: machine keys are branded. */
export type Computed<O> = { [K in keyof O]: K extends "machineKey" ? MachineKey : O[K] };

/** Hardware takes the machine key, never the VM key. */
export type OnMachine<T> = Omit<T, "machine"> & { machine: MachineKey };
