import type { Session } from "./session";
import { isStopped, lookAtMachineStatus, type MachineStatus } from "./machineStatus";
import { errorText } from "./platform";
import { kill, type PowerTimeouts, powerOn, untilRunning, type VmRef, vmSubject } from "./power";
import { restoreSnapshot } from "./restore";
import { type Clock, realClock } from "./waitFor";

/**
 * Resetting VMs to a snapshot (a lab between two sessions): each VM is
 * stopped if it runs (a restore needs a stopped VM: the platform answers 409
 * "VM must be stopped"), restored, and powered back to its declared state.
 *
 * The floor, per VM: one restore POST, plus one kill POST if it runs, plus
 * its power-on, asked for in the restore itself (`poweron`, as the maker's Go
 * client sends it; a power-on POST follows only if the platform left the VM
 * stopped). Every wait and look goes through the shared status poller, so
 * the reads of a whole class are a handful of GETs (one per tick, 100
 * machines a GET). A lab of running VMs: 2 POSTs per VM and a few reads in
 * all (measured on the emulator: 8 GETs for 12 VMs, 9 for 60: 2.13 requests
 * a VM); the wall time of one restore and one power-on when all run at once.
 */
export interface ResetTarget {
  vm: VmRef;
  /** The snapshot to restore (a machine_snapshots key). */
  snapshot: string;
  /** Declared power state; undefined: as the VM was before the reset. */
  powerState?: "running" | "stopped";
}

export interface ResetStep extends ResetTarget {
  /** The VM runs (or is starting or stopping): it is killed first, as its memory is discarded anyway. */
  stop: boolean;
  powerOn: boolean;
}

/** Statuses of a machine that is powered on, in any way: a restore is refused until it is stopped. */
const POWERED_STATUSES: readonly string[] = ["running", "starting", "stopping", "restarting", "migrating"];

export const poweredOn = (s: MachineStatus): boolean => s.running || POWERED_STATUSES.includes(s.status);

/** What a reset does to one VM, given its status now. */
export function planReset(target: ResetTarget, now: MachineStatus): ResetStep {
  const on = poweredOn(now);
  return { ...target, stop: on, powerOn: target.powerState === undefined ? on : target.powerState === "running" };
}

export interface ResetOutcome {
  target: ResetTarget;
  /** What was done; absent when the VM's status could not be read. */
  step?: ResetStep;
  /** The failure that stopped this VM's reset (the others go on). */
  error?: string;
}

export interface ResetOptions {
  timeouts: PowerTimeouts & { restore: number };
  /** VMs reset at once (default: all). */
  parallel?: number;
  clock?: Clock;
}

async function resetVm(api: Session, target: ResetTarget, t: ResetOptions["timeouts"], clock: Clock): Promise<ResetStep> {
  const { vm } = target;
  return api.withMachineLock(vm.machineKey, async () => {
    const step = planReset(target, await lookAtMachineStatus(api, vm.machineKey, `the status of VM '${vm.name}'`, clock));
    if (step.stop) await kill(api, vm, t, clock);
    const restored = await restoreSnapshot(api, vm, target.snapshot, t.restore, step.powerOn ? { poweron: true } : {}, clock);
    if (!step.powerOn) return step;
    const ref = { ...vm, machineKey: restored.machineKey };
    if (isStopped(restored.status)) await powerOn(api, ref, t, clock);
    else await untilRunning(vmSubject(api, ref), t, clock);
    return step;
  });
}

/** One line per VM: what its reset did. */
export function describeStep(step: ResetStep): string {
  const parts = [...(step.stop ? ["killed"] : []), `restored to snapshot ${step.snapshot}`, step.powerOn ? "running" : "stopped"];
  return parts.join(", ");
}

/** Resets every target, `parallel` at a time; one VM's failure does not stop the others (each outcome says). */
export async function resetVms(api: Session, targets: ResetTarget[], opts: ResetOptions): Promise<ResetOutcome[]> {
  const clock = opts.clock ?? realClock;
  const outcomes: ResetOutcome[] = new Array(targets.length);
  let next = 0;
  const worker = async () => {
    while (next < targets.length) {
      const i = next++;
      const target = targets[i];
      try {
        const step = await resetVm(api, target, opts.timeouts, clock);
        clock.log(`vplatform: VM '${target.vm.name}': ${describeStep(step)}`);
        outcomes[i] = { target, step };
      } catch (err) {
        clock.log(`vplatform: VM '${target.vm.name}': reset failed: ${errorText(err)}`);
        outcomes[i] = { target, error: errorText(err) };
      }
    }
  };
  const workers = Math.max(1, Math.min(opts.parallel ?? targets.length, targets.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return outcomes;
}
