import type { Session } from "./session";
import { type HardwareResetStep, type MachineNicsAndDevices, planHardwareReset } from "../plan/hardwareReset";
import { toBoolean } from "../schemas/normalize";
import { isRunning, isStopped, lookAtMachineStatus, type MachineStatus } from "./machineStatus";
import { errorStatus, errorText, rowsWhere, str } from "./platform";
import { type PowerTimeouts, powerOn, sendKill, untilStoppedAfterKill, type VmRef, vmSubject } from "./power";
import { Rendezvous } from "./rendezvous";
import { restoreSnapshot } from "./restore";
import { type Clock, realClock } from "./waitFor";
import { DEVICE_TABLE, NIC_TABLE, VM_TABLE } from "../schemas/tables";

/**
 * Resetting VMs to a snapshot (a lab between two sessions): each VM is
 * stopped if it runs (a restore needs a stopped VM: the platform answers 409
 * "VM must be stopped"), its NICs and devices put back as the snapshot holds
 * them (a restore brings back drives and settings only: a NIC a student added
 * would stay), restored, and powered back to its declared state.
 *
 * The floor, per VM: one restore POST, plus one kill POST if it runs, plus
 * its power-on, asked for in the restore itself (`poweron`, as the maker's Go
 * client sends it; a power-on POST follows only if the platform left the VM
 * stopped). Every wait and look goes through the shared status poller, so
 * the reads of a whole class are a handful of GETs (one per tick, 100
 * machines a GET), and so do the looks at the VMs' and snapshots' NICs and
 * devices. The VMs are reset in waves (all of them in one by default): a
 * wave's VMs are looked at in one read, and start their waits together once
 * each has sent its restore, so the poll's first read serves them all. A lab
 * of running VMs: 2 POSTs per VM, the looks and the poll; the wall time of
 * one restore and one power-on when all run at once.
 */
export interface ResetTarget {
  vm: VmRef;
  /** The snapshot to restore (a snapshot VM's key, as a lab's outputs hold it, or a machine_snapshots key). */
  snapshot: string;
  /** The snapshot's own machine, when known (a machine_snapshots row's snap_machine); else read from the snapshot VM. */
  snapshotMachine?: string;
  /** Declared power state; undefined: as the VM was before the reset. */
  powerState?: "running" | "stopped";
}

export interface ResetStep extends ResetTarget {
  /** The VM runs (or is starting or stopping): it is killed first, as its memory is discarded anyway. */
  stop: boolean;
  powerOn: boolean;
  /** What was done to its NICs and devices to make them the snapshot's (a student's NIC removed): empty when they were. */
  hardware?: string[];
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
  /** Its HTTP status, when the platform refused (403: the key may not change this VM). */
  status?: number;
}

export interface ResetOptions {
  timeouts: PowerTimeouts & { restore: number };
  /** VMs reset at once, in waves (default: all in one). */
  parallel?: number;
  clock?: Clock;
}

/** The platform refuses a restore of a VM not stopped yet (409 "VM must be stopped"). */
const refusedUntilStopped = (err: unknown): boolean => errorStatus(err) === 409 && /must be stopped/i.test(errorText(err));

const NIC_FIELDS = "$key,name,macaddress,vnet,enabled,description,interface";

/** The NICs and devices of a machine (look-ups joined with those of the other VMs reset at once). */
async function nicsAndDevices(api: Session, machine: string): Promise<MachineNicsAndDevices> {
  const [nics, devices] = await Promise.all([
    rowsWhere(api, NIC_TABLE, "machine", machine, NIC_FIELDS),
    rowsWhere(api, DEVICE_TABLE, "machine", machine, "$key,name,uuid"),
  ]);
  return {
    nics: nics.map((n) => ({
      key: str(n.$key),
      name: str(n.name),
      macaddress: str(n.macaddress),
      vnet: str(n.vnet),
      enabled: toBoolean(n.enabled) !== false,
      description: str(n.description),
      interface: str(n.interface),
    })),
    devices: devices.map((d) => ({ key: str(d.$key), name: str(d.name), uuid: str(d.uuid) })),
  };
}

/** What makes the VM's NICs and devices its snapshot's (a restore brings back its drives and settings only). */
async function hardwareResetOf(api: Session, target: ResetTarget): Promise<HardwareResetStep[]> {
  const snapshotMachine = target.snapshotMachine ?? str((await rowsWhere(api, VM_TABLE, "$key", target.snapshot, "machine"))[0]?.machine);
  if (!snapshotMachine) return []; // no such snapshot: the restore says so
  const [vm, snapshot] = await Promise.all([nicsAndDevices(api, target.vm.machineKey), nicsAndDevices(api, snapshotMachine)]);
  return planHardwareReset(vm, snapshot);
}

/**
 * Runs the steps; each says what it did. A step the key may not take (403: a student's key, whose grants leave its
 * VMs' hardware read-only) is left, said so, and the reset goes on: the restore is still its to do.
 */
async function runHardwareReset(api: Session, vm: VmRef, steps: HardwareResetStep[]): Promise<string[]> {
  const done: string[] = [];
  for (const step of steps) {
    try {
      switch (step.kind) {
        case "deleteNic":
          await api.remove(NIC_TABLE, step.key);
          break;
        case "deleteDevice":
          await api.remove(DEVICE_TABLE, step.key);
          break;
        case "putNic":
          await api.update(NIC_TABLE, step.key, step.changes);
          break;
        case "addNic":
          await api.create(NIC_TABLE, { ...step.body, machine: vm.machineKey });
          break;
      }
      done.push(step.what);
    } catch (err) {
      if (errorStatus(err) !== 403) throw err;
      done.push(`${step.object} left as it is (this key may not change the VM's hardware)`);
    }
  }
  return done;
}

/**
 * The floor: one look (shared by every VM reset at once, with the hardware look), the kill, the
 * restore sent at once behind it (a kill is immediate; only if the platform
 * still refuses the restore is the VM waited for), and one wait, shared too,
 * until the restore's power-on has the VM running.
 */
async function resetVm(
  api: Session,
  target: ResetTarget,
  t: ResetOptions["timeouts"],
  clock: Clock,
  wave: { arrive(): Promise<void> },
): Promise<ResetStep> {
  const { vm } = target;
  return api.withMachineLock(vm.machineKey, async () => {
    const [now, hardware] = await Promise.all([
      lookAtMachineStatus(api, vm.machineKey, `the status of VM '${vm.name}'`, clock),
      hardwareResetOf(api, target),
    ]);
    const step: ResetStep = planReset(target, now);
    if (step.stop) await sendKill(api, vm, t, clock);
    // NICs and devices change on a stopped VM (a running one refuses without hotplug).
    if (hardware.length > 0) {
      if (step.stop) await untilStoppedAfterKill(vmSubject(api, vm), t, clock);
      step.hardware = await runHardwareReset(api, vm, hardware);
    }
    const restore = () =>
      restoreSnapshot(api, vm, target.snapshot, t.restore, {
        params: step.powerOn ? { poweron: true } : {},
        before: step.stop ? { running: false, status: "stopped" } : now,
        // With poweron the restore is over once the VM runs (or, if the platform left it stopped, is stopped).
        until: step.powerOn ? (s) => isRunning(s) || isStopped(s) : undefined,
        sent: () => wave.arrive(),
        clock,
      });
    const restored = await restore().catch(async (err: unknown) => {
      if (!step.stop || !refusedUntilStopped(err)) throw err;
      await untilStoppedAfterKill(vmSubject(api, vm), t, clock);
      return restore();
    });
    if (step.powerOn && !isRunning(restored.status)) await powerOn(api, { ...vm, machineKey: restored.machineKey }, t, clock);
    return step;
  });
}

/** One line per VM: what its reset did. */
export function describeStep(step: ResetStep): string {
  const parts = [
    ...(step.stop ? ["killed"] : []),
    ...(step.hardware ?? []),
    `restored to snapshot ${step.snapshot}`,
    step.powerOn ? "running" : "stopped",
  ];
  return parts.join(", ");
}

/**
 * The targets in waves of at most `parallel` (all in one by default), in order; a machine at most once a wave, as
 * its VMs wait for each other within one and a second reset of a machine waits for the first (its lock).
 */
export function planWaves<T extends { vm: { machineKey: string } }>(targets: T[], parallel = targets.length): T[][] {
  const size = Math.max(1, parallel);
  const waves: T[][] = [];
  for (const target of targets) {
    const wave = waves.find((w) => w.length < size && !w.some((other) => other.vm.machineKey === target.vm.machineKey));
    if (wave) wave.push(target);
    else waves.push([target]);
  }
  return waves;
}

/** Resets every target, a wave at a time; one VM's failure does not stop the others (each outcome says). */
export async function resetVms(api: Session, targets: ResetTarget[], opts: ResetOptions): Promise<ResetOutcome[]> {
  const clock = opts.clock ?? realClock;
  const outcomes = new Map<ResetTarget, ResetOutcome>();
  const resetOne = async (target: ResetTarget, wave: ReturnType<Rendezvous["member"]>) => {
    try {
      const step = await resetVm(api, target, opts.timeouts, clock, wave);
      clock.log(`vplatform: VM '${target.vm.name}': ${describeStep(step)}`);
      outcomes.set(target, { target, step });
    } catch (err) {
      clock.log(`vplatform: VM '${target.vm.name}': reset failed: ${errorText(err)}`);
      const status = errorStatus(err);
      outcomes.set(target, { target, error: errorText(err), ...(status === undefined ? {} : { status }) });
    } finally {
      wave.leave(); // one that failed before its restore holds the others no longer
    }
  };
  for (const wave of planWaves(targets, opts.parallel)) {
    const meeting = new Rendezvous(wave.length);
    await Promise.all(wave.map((target) => resetOne(target, meeting.member())));
  }
  return targets.map((target) => outcomes.get(target) as ResetOutcome);
}
