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

type Primitive = string | number | boolean | null | undefined;

/**
 * An input at any depth: the whole value, or any field or item inside it, may
 * be a promise or an output (`cloneFrom: { vm: template.id }`). Tuple-wrapped
 * conditions keep `boolean` and string unions whole (an Output<boolean> is not
 * an Output<true> | Output<false>); a branded MachineKey stays branded.
 */
export type DeepInput<T> = undefined extends T ? DeepInputOf<Exclude<T, undefined>> | undefined : DeepInputOf<T>;
type DeepInputOf<T> = [T] extends [Primitive]
  ? pulumi.Input<T>
  : [T] extends [readonly (infer U)[]]
    ? pulumi.Input<DeepInput<U>[]>
    : [T] extends [object]
      ? pulumi.Input<{ [K in keyof T]: DeepInput<T[K]> }>
      : pulumi.Input<T>;

/** Resource args: every input, at any depth, may be a promise or output. */
export type Args<T> = { [K in keyof T]: DeepInput<T[K]> };

/** Typed outputs, merged into each resource class. */
export type Outputs<T> = { readonly [K in keyof T]-?: pulumi.Output<T[K]> };
