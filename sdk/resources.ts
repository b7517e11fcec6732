import * as pulumi from "@pulumi/pulumi";
import { declaredResource } from "./declaredResource";
import { deletedWithItsVm } from "./deletedWithVm";
import type * as T from "./schemaTypes.generated";
import { Args, Computed, MachineKey, Outputs } from "./types";
import { claimName, programScope } from "./uniqueNames";

/** Hardware takes the machine key, never the VM key. */
type OnMachine<T> = Omit<T, "machine"> & { machine: MachineKey };

export type VirtualMachineArgs = Args<T.VirtualMachineInputs>;
export type DriveArgs = Args<OnMachine<T.DriveInputs>>;
export type NicArgs = Args<OnMachine<T.NicInputs>>;
export type DeviceArgs = Args<OnMachine<T.DeviceInputs>>;
export type VnetArgs = Args<T.VnetInputs>;
export type VmSnapshotArgs = Args<T.VmSnapshotInputs>;
export type * from "./schemaTypes.generated";

/**
 * The VM whose `machineKey` output each is: hardware given that output copies
 * the VM's key and power-cycle policy into its own inputs, so the provider
 * follows the VM's policy even in a run that does not touch the VM (`--target`).
 */
const machineOwners = new WeakMap<object, VirtualMachine>();

const ownerOf = (machine: unknown) => (typeof machine === "object" && machine !== null ? machineOwners.get(machine) : undefined);

function onMachine<A extends { machine: unknown; name?: unknown; vm?: unknown; powerCyclePolicy?: unknown }>(type: string, logical: string, args: A): A {
  const owner = ownerOf(args.machine);
  claimName(owner, type, args.name, logical, "on the same VM");
  return owner ? { ...args, vm: args.vm ?? owner.id, powerCyclePolicy: args.powerCyclePolicy ?? owner.powerCyclePolicy } : args;
}

/** A VM; `id` is the VM key, `machineKey` what its hardware attaches to. */
export class VirtualMachine extends pulumi.dynamic.Resource {
  constructor(name: string, args: VirtualMachineArgs, opts?: pulumi.CustomResourceOptions) {
    claimName(programScope(), "VirtualMachine", args.name, name, "in this program");
    super(...declaredResource("VirtualMachine", name, args, opts));
    machineOwners.set(this.machineKey, this);
  }
}
export interface VirtualMachine extends Outputs<T.VirtualMachineValues & Computed<T.VirtualMachineComputed>> {}

export class Drive extends pulumi.dynamic.Resource {
  constructor(name: string, args: DriveArgs, opts?: pulumi.CustomResourceOptions) {
    super(...declaredResource("Drive", name, onMachine("Drive", name, args), deletedWithItsVm(ownerOf(args.machine), opts)));
  }
}
export interface Drive extends Outputs<OnMachine<T.DriveValues>> {}

export class Nic extends pulumi.dynamic.Resource {
  constructor(name: string, args: NicArgs, opts?: pulumi.CustomResourceOptions) {
    super(...declaredResource("Nic", name, onMachine("Nic", name, args), deletedWithItsVm(ownerOf(args.machine), opts)));
  }
}
export interface Nic extends Outputs<OnMachine<T.NicValues>> {}

/** A passthrough device (GPU, PCI, USB, TPM); `uuid` comes from the platform. */
export class Device extends pulumi.dynamic.Resource {
  constructor(name: string, args: DeviceArgs, opts?: pulumi.CustomResourceOptions) {
    super(...declaredResource("Device", name, onMachine("Device", name, args), deletedWithItsVm(ownerOf(args.machine), opts)));
  }
}
export interface Device extends Outputs<OnMachine<T.DeviceValues> & Computed<T.DeviceComputed>> {}

export class Vnet extends pulumi.dynamic.Resource {
  constructor(name: string, args: VnetArgs, opts?: pulumi.CustomResourceOptions) {
    claimName(programScope(), "Vnet", args.name, name, "in this program");
    super(...declaredResource("Vnet", name, args, opts));
  }
}
export interface Vnet extends Outputs<T.VnetValues> {}

/** A snapshot of a VM; changing `restoreTrigger` rolls the VM back to it. */
export class VmSnapshot extends pulumi.dynamic.Resource {
  constructor(name: string, args: VmSnapshotArgs, opts?: pulumi.CustomResourceOptions) {
    super(...declaredResource("VmSnapshot", name, args, opts));
  }
}
export interface VmSnapshot extends Outputs<T.VmSnapshotValues & Computed<T.VmSnapshotComputed>> {}
