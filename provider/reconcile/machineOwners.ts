import type { MachineStatus } from "./machineStatus";
import { perSession, type Session } from "./session";

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
 * Kept per session (see perSession): two sites never share it.
 */
interface Known {
  byMachine: Map<string, MachineOwner>;
  machineOfVm: Map<string, string>;
  /** VM key → its keys and name: kept through power actions (they change none of it), dropped when the VM changes or goes. */
  refs: Map<string, MachineOwner["ref"]>;
  /** Machines this process created or cloned (not taken over, not recovered): no earlier run can have made hardware or snapshots of them. */
  madeHere: Set<string>;
}
const known = perSession<Known>(() => ({ byMachine: new Map(), machineOfVm: new Map(), refs: new Map(), madeHere: new Set() }));

export function rememberOwner(session: Session, owner: MachineOwner): void {
  if (!owner.ref.machineKey || !owner.ref.vmKey) return;
  known(session).byMachine.set(owner.ref.machineKey, owner);
  known(session).machineOfVm.set(owner.ref.vmKey, owner.ref.machineKey);
  known(session).refs.set(owner.ref.vmKey, owner.ref);
}

/** A VM's keys and name as just read (a clone's template, a snapshot's VM): its power is not known. */
export function rememberVmRef(session: Session, ref: MachineOwner["ref"]): void {
  if (ref.machineKey && ref.vmKey) known(session).refs.set(ref.vmKey, ref);
}

/**
 * The keys and name of VM `vmKey`, if this process knows them: a VM cloned
 * thirty times or snapshotted after its power-on is looked up once, not each time.
 */
export function knownVmRef(session: Session, vmKey: string): MachineOwner["ref"] | undefined {
  return known(session).refs.get(vmKey);
}

/** The VM is being changed (a rename) or deleted: its keys and name are read again, like its power. */
export function forgetVm(session: Session, ref: { vmKey: string; machineKey: string }): void {
  known(session).refs.delete(ref.vmKey);
  forgetOwner(session, ref.machineKey);
}

/** The VM owning `machineKey`, if this process knows it. */
export function knownOwner(session: Session, machineKey: string): MachineOwner | undefined {
  return known(session).byMachine.get(machineKey);
}

export function knownOwnerOfVm(session: Session, vmKey: string): MachineOwner | undefined {
  const machine = known(session).machineOfVm.get(vmKey);
  return machine === undefined ? undefined : knownOwner(session, machine);
}

/** The machine's power is changing (or it is going away): its status must be read again. */
export function forgetOwner(session: Session, machineKey: string): void {
  known(session).byMachine.delete(machineKey);
}

/** A VM this process just created, changed or read; an unknown allow_hotplug only matters (and is only left out) when it runs. */
export function rememberVm(
  session: Session,
  ref: MachineOwner["ref"],
  status: MachineOwner["status"],
  allowHotplug: boolean | undefined,
): void {
  if (allowHotplug === undefined && status.running) return;
  rememberOwner(session, { ref, status, allowHotplug: allowHotplug === true });
}

export function rememberMadeHere(session: Session, machineKey: string): void {
  if (machineKey) known(session).madeHere.add(machineKey);
}

/** Whether this process created the machine. */
export function madeByThisProcess(session: Session, machineKey: string): boolean {
  return known(session).madeHere.has(machineKey);
}
