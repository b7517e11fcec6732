import * as pulumi from "@pulumi/pulumi";
import { deviceInputsSchema, deviceOutputs } from "../provider/schemas/device";
import { driveInputsSchema } from "../provider/schemas/drive";
import { nicInputsSchema } from "../provider/schemas/nic";
import { virtualMachineInputsSchema, virtualMachineOutputs } from "../provider/schemas/virtualMachine";
import { vmSnapshotInputsSchema, vmSnapshotOutputs } from "../provider/schemas/vmSnapshot";
import { vnetInputsSchema } from "../provider/schemas/vnet";
import { deletedWithItsVm } from "./deletedWithVm";
import { seed, dynamicProvider, withMarker, withSecretOutputs } from "./providerShim";
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

// One provider object per type: Pulumi caches its serialization per object.
const providers = {
  VirtualMachine: dynamicProvider("virtualMachine"),
  Drive: dynamicProvider("drive"),
  Nic: dynamicProvider("nic"),
  Device: dynamicProvider("device"),
  Vnet: dynamicProvider("vnet"),
  VmSnapshot: dynamicProvider("vmSnapshot"),
};

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
    const props = seed(virtualMachineInputsSchema, args, virtualMachineOutputs);
    super(providers.VirtualMachine, name, withMarker("VirtualMachine", name, props), withSecretOutputs(virtualMachineInputsSchema, opts), "vplatform", "VirtualMachine");
    machineOwners.set(this.machineKey, this);
  }
}
export interface VirtualMachine extends Outputs<T.VirtualMachineValues & Computed<T.VirtualMachineComputed>> {}

export class Drive extends pulumi.dynamic.Resource {
  constructor(name: string, args: DriveArgs, opts?: pulumi.CustomResourceOptions) {
    super(providers.Drive, name, withMarker("Drive", name, seed(driveInputsSchema, onMachine("Drive", name, args))), deletedWithItsVm(ownerOf(args.machine), opts), "vplatform", "Drive");
  }
}
export interface Drive extends Outputs<OnMachine<T.DriveValues>> {}

export class Nic extends pulumi.dynamic.Resource {
  constructor(name: string, args: NicArgs, opts?: pulumi.CustomResourceOptions) {
    super(providers.Nic, name, withMarker("Nic", name, seed(nicInputsSchema, onMachine("Nic", name, args))), deletedWithItsVm(ownerOf(args.machine), opts), "vplatform", "Nic");
  }
}
export interface Nic extends Outputs<OnMachine<T.NicValues>> {}

/** A passthrough device (GPU, PCI, USB, TPM); `uuid` comes from the platform. */
export class Device extends pulumi.dynamic.Resource {
  constructor(name: string, args: DeviceArgs, opts?: pulumi.CustomResourceOptions) {
    super(providers.Device, name, withMarker("Device", name, seed(deviceInputsSchema, onMachine("Device", name, args), deviceOutputs)), deletedWithItsVm(ownerOf(args.machine), opts), "vplatform", "Device");
  }
}
export interface Device extends Outputs<OnMachine<T.DeviceValues> & Computed<T.DeviceComputed>> {}

export class Vnet extends pulumi.dynamic.Resource {
  constructor(name: string, args: VnetArgs, opts?: pulumi.CustomResourceOptions) {
    claimName(programScope(), "Vnet", args.name, name, "in this program");
    super(providers.Vnet, name, withMarker("Vnet", name, seed(vnetInputsSchema, args)), opts, "vplatform", "Vnet");
  }
}
export interface Vnet extends Outputs<T.VnetValues> {}

/** A snapshot of a VM; changing `restoreTrigger` rolls the VM back to it. */
export class VmSnapshot extends pulumi.dynamic.Resource {
  constructor(name: string, args: VmSnapshotArgs, opts?: pulumi.CustomResourceOptions) {
    super(providers.VmSnapshot, name, withMarker("VmSnapshot", name, seed(vmSnapshotInputsSchema, args, vmSnapshotOutputs)), opts, "vplatform", "VmSnapshot");
  }
}
export interface VmSnapshot extends Outputs<T.VmSnapshotValues & Computed<T.VmSnapshotComputed>> {}
