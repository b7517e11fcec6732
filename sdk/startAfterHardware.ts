import type * as pulumi from "@pulumi/pulumi";

/** A VM resource as the start step needs it. */
type Vm = pulumi.CustomResource;

/** Declares the step that starts `vm` once `hardware` is attached. */
export type StartStep = (vm: Vm, hardware: pulumi.Resource[]) => void;

interface Planned {
  declare: StartStep;
  decide(afterHardware: boolean): void;
  hardware: pulumi.Resource[];
}

const plannedByArgs = new WeakMap<object, Planned>();
const plannedByVm = new WeakMap<Vm, Planned>();

/**
 * A VM declared running whose hardware the program declares with it: starting
 * it at its create would hot-plug every drive and NIC (a wait each, queued
 * behind the engine's parallelism) or power-cycle it. So the VM is created
 * stopped, its hardware attached cold, and a start step (a VmPower that
 * depends on the hardware) starts it once. Resolves, for the VM's hidden input,
 * whether that is so: hardware declared in the same turn of the program as the
 * VM (a straight-line program) counts; none, and the VM starts at its create.
 */
export function planStartAfterHardware(args: object, declare: StartStep): Promise<boolean> {
  return new Promise((decide) => plannedByArgs.set(args, { declare, decide, hardware: [] }));
}

/** The VM `args` declared is constructed: its hardware is counted until the program's turn ends. */
export function collectHardwareOf(vm: Vm, args: object): void {
  const planned = plannedByArgs.get(args);
  if (!planned) return;
  plannedByArgs.delete(args);
  plannedByVm.set(vm, planned);
  setImmediate(() => {
    plannedByVm.delete(vm);
    const afterHardware = planned.hardware.length > 0;
    if (afterHardware) planned.declare(vm, planned.hardware);
    planned.decide(afterHardware);
  });
}

/** Hardware constructed on `vm`'s machine: the VM's start waits for it if it is still being collected. */
export function hardwareDeclared(vm: Vm | undefined, hardware: pulumi.Resource): void {
  if (vm) plannedByVm.get(vm)?.hardware.push(hardware);
}
