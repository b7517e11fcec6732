import type * as pulumi from "@pulumi/pulumi";
import { hardwareName, powerName } from "./logicalNames";
import {
  Device,
  type DeviceArgs,
  Drive,
  type DriveArgs,
  Nic,
  type NicArgs,
  VirtualMachine,
  type VirtualMachineArgs,
  VmPower,
} from "./resources.generated";
import { POWER_BY_VMPOWER_INPUT } from "../provider/schemas/hiddenInputs";

/**
 * The classes a VM and its hardware are declared with, by the registry's names: the SDK's own (the default), or the
 * plugin's types when the plugin's component declares them (sdk/labComponent.ts).
 */
export interface VmClasses {
  VirtualMachine: typeof VirtualMachine;
  Drive: typeof Drive;
  Nic: typeof Nic;
  Device: typeof Device;
  VmPower: typeof VmPower;
}
const SDK_VM_CLASSES: VmClasses = { VirtualMachine, Drive, Nic, Device, VmPower };

/** Hardware nested under its VM: the VM's machine is implied; its name, part of its logical name, is plain text. */
type Nested<A> = Omit<A, "machine" | "name"> & { name?: string };

/**
 * A VM with its hardware nested under it and its power as a field, references already keys: how an environment
 * file's VM entry and a lab's template VM are declared (one declaration, both doors).
 */
export type VmDeclarationArgs = Omit<VirtualMachineArgs, "name" | "powerState"> & {
  /** The VM's name on the platform, also its logical name. */
  name: string;
  /** Applied by a VmPower once the hardware is attached. */
  powerState?: "running" | "stopped";
  drives?: Nested<DriveArgs>[];
  nics?: Nested<NicArgs>[];
  devices?: Nested<DeviceArgs>[];
};

export interface DeclaredVm {
  vm: VirtualMachine;
  /** Its drives, NICs and devices (children of the VM). */
  hardware: pulumi.Resource[];
  /** What starts or stops it once its hardware is attached, when it declares a power state. */
  power?: VmPower;
  /** Its status: the power resource's when there is one (the VM's own predates its start). */
  status: pulumi.Output<string>;
}

/**
 * A VM, its hardware, then its power: the VM is started once everything is attached (passthrough devices need
 * it stopped, so starting it first would mean a start, a stop and a start again).
 */
export function declareVm(
  args: VmDeclarationArgs,
  opts?: pulumi.CustomResourceOptions,
  { VirtualMachine, Drive, Nic, Device, VmPower }: VmClasses = SDK_VM_CLASSES,
): DeclaredVm {
  const { drives = [], nics = [], devices = [], powerState, ...vmArgs } = args;
  // The VM is told the state its VmPower declares: its preview judges a restart by it (its own record predates the start).
  const vm = new VirtualMachine(
    args.name,
    powerState ? ({ ...vmArgs, [POWER_BY_VMPOWER_INPUT]: powerState } as VirtualMachineArgs) : vmArgs,
    opts,
  );
  const child = { parent: vm };
  const hardware: pulumi.Resource[] = [
    ...drives.map((d, i) => new Drive(hardwareName(args.name, "drive", d, i), { ...d, machine: vm.machineKey }, child)),
    ...nics.map((n, i) => new Nic(hardwareName(args.name, "nic", n, i), { ...n, machine: vm.machineKey }, child)),
    ...devices.map((d, i) => new Device(hardwareName(args.name, "device", d, i), { ...d, machine: vm.machineKey }, child)),
  ];
  if (!powerState) return { vm, hardware, status: vm.status };
  const power = new VmPower(
    powerName(args.name),
    { vm: vm.id, state: powerState, timeouts: args.timeouts },
    { parent: vm, dependsOn: hardware },
  );
  return { vm, hardware, power, status: power.status };
}
