import type { MachineStatus } from "./machineStatus";
import { economyOn } from "./requestEconomy";

/** The VM owning a machine, with what hardware changes depend on. */
export interface MachineOwner {
  ref: { vmKey: string; machineKey: string; name: string };
  allowHotplug: boolean;
  status: MachineStatus;
}

/**
 * What this process knows about each machine's VM: its keys and name (which
 * never change), `allow_hotplug`, and the power status as of the last thing
 * the platform said or this process did. A VM's hardware (checks, creates)
 * is served from here instead of looking the VM up again. Any power action on
 * the machine, and its deletion, forget the entry, so a later change reads
 * the live state again.
 */
const byMachine = new Map<string, MachineOwner>();
const machineOfVm = new Map<string, string>();

export function rememberOwner(owner: MachineOwner): void {
  if (!owner.ref.machineKey || !owner.ref.vmKey) return;
  byMachine.set(owner.ref.machineKey, owner);
  machineOfVm.set(owner.ref.vmKey, owner.ref.machineKey);
}

/** The VM owning `machineKey`, if this process knows it (VPLATFORM_BASELINE=reads: never). */
export function knownOwner(machineKey: string): MachineOwner | undefined {
  return economyOn("reads") ? byMachine.get(machineKey) : undefined;
}

export function knownOwnerOfVm(vmKey: string): MachineOwner | undefined {
  const machine = machineOfVm.get(vmKey);
  return machine === undefined ? undefined : knownOwner(machine);
}

/** The machine's power is changing (or it is going away): its status must be read again. */
export function forgetOwner(machineKey: string): void {
  byMachine.delete(machineKey);
}

/** A VM this process just created, changed or read; an unknown allow_hotplug only matters (and is only left out) when it runs. */
export function rememberVm(ref: MachineOwner["ref"], status: MachineOwner["status"], allowHotplug: boolean | undefined): void {
  if (allowHotplug === undefined && status.running) return;
  rememberOwner({ ref, status, allowHotplug: allowHotplug === true });
}

/** Machines this process created (not taken over, not cloned): no earlier run can have made hardware on them. */
const madeHere = new Set<string>();

export function rememberMadeHere(machineKey: string): void {
  if (machineKey) madeHere.add(machineKey);
}

/** Whether this process created the machine (VPLATFORM_BASELINE=reads: never assumed). */
export function madeByThisProcess(machineKey: string): boolean {
  return economyOn("reads") && madeHere.has(machineKey);
}
