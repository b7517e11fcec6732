import type * as pulumi from "@pulumi/pulumi";
import type { MachineKey } from "./types";
import { collectHardwareOf, hardwareDeclared } from "./startAfterHardware";

/** A resource whose `machineKey` output hardware attaches to (a VirtualMachine). */
export interface MachineOwner extends pulumi.CustomResource {
  readonly machineKey: pulumi.Output<MachineKey>;
  readonly powerCyclePolicy: pulumi.Output<unknown>;
}

/**
 * The VM whose `machineKey` output each is: hardware given that output copies
 * the VM's key and power-cycle policy into its own inputs, so the provider
 * follows the VM's policy even in a run that does not touch the VM (`--target`).
 */
const machineOwners = new WeakMap<object, MachineOwner>();

/** A VM is constructed from `args`: its machine key is known as its, and a start planned after its hardware collects it. */
export function ownMachine(vm: MachineOwner, args: object): void {
  machineOwners.set(vm.machineKey, vm);
  collectHardwareOf(vm, args);
}

/** Hardware is constructed from `args`: a start of its VM planned after its hardware waits for it. */
export function onMachine(hardware: pulumi.Resource, args: { machine?: unknown }): void {
  hardwareDeclared(ownerOf(args.machine), hardware);
}

export const ownerOf = (machine: unknown): MachineOwner | undefined =>
  typeof machine === "object" && machine !== null ? machineOwners.get(machine) : undefined;

/** Hardware's inputs with its VM's key and power-cycle policy, unless given. */
export function withOwnerCopies(args: Record<string, unknown>, owner: MachineOwner): Record<string, unknown> {
  return { ...args, vm: args.vm ?? owner.id, powerCyclePolicy: args.powerCyclePolicy ?? owner.powerCyclePolicy };
}
