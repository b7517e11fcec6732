import type { Session } from "./session";
import type { PowerCyclePolicy } from "../schemas/hardware";
import type { OperationTimeouts } from "../schemas/timeouts";
import { type MachineStatus, type MachineWait, isRunning, isStopped, lookAtMachineStatus, waitForMachineStatus } from "./machineStatus";
import type { Row } from "./platform";
import { sendConfirmed } from "./confirmedAction";
import { forgetOwner, forgetVm } from "./machineOwners";
import { waitingForStart } from "./queuedStarts";
import { type Clock, WaitTimeoutError, realClock } from "./waitFor";
import { forTheWholeRun } from "../client/engineLog";
import { VM_ACTION_TABLE } from "../schemas/tables";

/** What the reconciler needs to know to act on a VM. */
export interface VmRef {
  vmKey: string;
  machineKey: string;
  name: string;
}

/** Seconds. */
export interface PowerTimeouts {
  powerChange: number;
  gracefulShutdown: number;
  forcedShutdown: number;
}

export function powerTimeouts(t: OperationTimeouts): PowerTimeouts {
  return { powerChange: t.powerChange, gracefulShutdown: t.gracefulShutdown, forcedShutdown: t.forcedShutdown };
}

/** Resolves to the action's answer (clone: `response.vmkey`/`machinekey`; restore: `response.machine`). */
export function vmAction(api: Session, vm: VmRef, action: string, params?: Row): Promise<{ response?: Row }> {
  // What this process knew of the machine's power no longer holds; after a restore, not even its machine key
  // (the spec does not say whether a restore keeps the VM's machine).
  if (action === "restore") forgetVm(api, vm);
  else forgetOwner(api, vm.machineKey);
  return api.action(VM_ACTION_TABLE, params === undefined ? { vm: vm.vmKey, action } : { vm: vm.vmKey, action, params });
}

/** The power actions every powered thing knows (a vnet names its kill `killpower`; its subject maps the name). */
export type PowerActionName = "poweron" | "poweroff" | "kill";

/**
 * What is powered on and off: a VM, or a vnet (its router). Each says how an
 * action is posted and how its status is read, through the shared poller.
 */
export interface PowerSubject {
  /** For messages: "VM 'web'", "vnet 'lab'". */
  label: string;
  send(action: PowerActionName): Promise<unknown>;
  /** One read of the status, coalesced with other looks: did an action take? */
  look(clock: Clock): Promise<MachineStatus>;
  /** Waits, coalesced with every other wait of its kind, for the status to satisfy `predicate`. */
  waitFor(predicate: (s: MachineStatus) => boolean, opts: MachineWait): Promise<MachineStatus>;
}

/** A VM's power goes through `vm_actions`; its status is its machine's. */
export function vmSubject(api: Session, vm: VmRef): PowerSubject {
  return {
    label: `VM '${vm.name}'`,
    send: (action) => vmAction(api, vm, action, action === "poweron" ? {} : undefined),
    look: (clock) => lookAtMachineStatus(api, vm.machineKey, `the status of VM '${vm.name}'`, clock),
    waitFor: (predicate, opts) => waitForMachineStatus(api, vm.machineKey, predicate, opts),
  };
}

/** A power action, the state it brings the machine to, and the states that show it was taken (the machine is on its way). */
interface PowerAction {
  action: PowerActionName;
  /** For messages: "power-on". */
  name: string;
  target: (s: MachineStatus) => boolean;
  underway: (s: MachineStatus) => boolean;
}

const POWER_ON: PowerAction = {
  action: "poweron",
  name: "power-on",
  target: isRunning,
  underway: (s) => s.running || s.status === "starting",
};
const POWER_OFF: PowerAction = {
  action: "poweroff",
  name: "shutdown",
  target: isStopped,
  underway: (s) => !s.running || s.status === "stopping",
};
const KILL: PowerAction = { action: "kill", name: "kill", target: isStopped, underway: (s) => !s.running };

/**
 * Sends the action; resolves to whether to wait for the machine to get there:
 * false when it is there already (the platform answers 409 to poweron while
 * running, poweroff while stopped). A failure that leaves the outcome open is
 * settled by the machine's status (sendConfirmed): on its way, the run waits;
 * still where it was, the action is sent again, within timeouts.powerChange.
 */
async function sendPowerAction(subject: PowerSubject, power: PowerAction, t: PowerTimeouts, clock: Clock): Promise<boolean> {
  const outcome = await sendConfirmed(
    {
      what: `${power.name} of ${subject.label}`,
      send: () => subject.send(power.action),
      async look() {
        const s = await subject.look(clock);
        const taken = power.target(s) ? ("there" as const) : power.underway(s) ? ("on its way" as const) : undefined;
        return { taken, state: `status ${s.status}` };
      },
      limitSec: t.powerChange,
      timeoutInput: "powerChange",
    },
    clock,
  );
  return outcome !== "there";
}

/** Waits, with every other wait of its kind, until the subject runs: within `powerChange`, the poller learning from `kind`. */
export function untilRunning(
  subject: PowerSubject,
  t: PowerTimeouts,
  clock: Clock,
  kind = "power-on",
  what = "reach running",
): Promise<MachineStatus> {
  return subject.waitFor(isRunning, {
    kind,
    timeoutSec: t.powerChange,
    label: `${subject.label} to ${what}`,
    timeoutInput: "powerChange",
    clock,
  });
}

/** Powers the subject on and waits until it runs; `around` wraps the wait (a VM's start tells when starts queue). */
export async function switchOn(
  subject: PowerSubject,
  t: PowerTimeouts,
  clock: Clock = realClock,
  around: (wait: () => Promise<MachineStatus>) => Promise<MachineStatus> = (wait) => wait(),
): Promise<void> {
  if (!(await sendPowerAction(subject, POWER_ON, t, clock))) return;
  await around(() => untilRunning(subject, t, clock));
}

/** Graceful shutdown; a kill only when it is ignored for `gracefulShutdown` seconds. */
export async function switchOff(subject: PowerSubject, t: PowerTimeouts, clock: Clock = realClock): Promise<void> {
  if (!(await sendPowerAction(subject, POWER_OFF, t, clock))) return;
  try {
    await subject.waitFor(isStopped, { kind: "shutdown", timeoutSec: t.gracefulShutdown, label: `${subject.label} to shut down`, clock });
    return;
  } catch (err) {
    if (!(err instanceof WaitTimeoutError)) throw err;
  }
  clock.log(`vplatform: ${subject.label} ignored the shutdown signal for ${t.gracefulShutdown}s; forcing it off (kill)`);
  await forceOff(subject, t, clock);
}

/** Forced power off (what it had in memory is lost): for a VM about to be rolled back, or anything that ignored a shutdown. */
export async function forceOff(subject: PowerSubject, t: PowerTimeouts, clock: Clock = realClock): Promise<void> {
  if (!(await sendPowerAction(subject, KILL, t, clock))) return;
  await untilStoppedAfterKill(subject, t, clock);
}

/** After a kill: the wait until the machine is stopped. */
export function untilStoppedAfterKill(subject: PowerSubject, t: PowerTimeouts, clock: Clock): Promise<MachineStatus> {
  return subject.waitFor(isStopped, {
    kind: "kill",
    timeoutSec: t.forcedShutdown,
    label: `${subject.label} to stop after kill`,
    timeoutInput: "forcedShutdown",
    clock,
  });
}

export function powerOn(api: Session, vm: VmRef, t: PowerTimeouts, clock: Clock = realClock): Promise<void> {
  // The hint is about the run's parallelism, not this VM: on a resource, the engine would repeat it on each of its rows.
  return switchOn(vmSubject(api, vm), t, clock, (wait) => waitingForStart(api, wait, (line) => forTheWholeRun(() => clock.log(line))));
}

/** Graceful ACPI shutdown; a kill only when the guest ignores it for `gracefulShutdown` seconds. */
export function powerOff(api: Session, vm: VmRef, t: PowerTimeouts, clock: Clock = realClock): Promise<void> {
  return switchOff(vmSubject(api, vm), t, clock);
}

/** The kill alone, confirmed but not waited for (a kill is immediate; what follows waits only if refused). */
export async function sendKill(api: Session, vm: VmRef, t: PowerTimeouts, clock: Clock = realClock): Promise<void> {
  await sendPowerAction(vmSubject(api, vm), KILL, t, clock);
}

export class PowerCycleRefusedError extends Error {
  constructor(vm: VmRef, reasons: string[]) {
    super(
      `vplatform: VM '${vm.name}' is running and ${reasons.join(", ")} needs a power cycle, ` +
        `but powerCyclePolicy is "refuse". Stop the VM first (powerState: "stopped") or set powerCyclePolicy: "restart".`,
    );
    this.name = "PowerCycleRefusedError";
  }
}

export interface PowerCycle {
  policy: PowerCyclePolicy;
  /** Why a power cycle is needed (field names); empty = apply live. */
  reasons: string[];
  running: boolean;
  timeouts: PowerTimeouts;
  clock?: Clock;
  /** Runs the start after the change; by default at once. Hardware changes hand it to the last change queued on the machine. */
  startAgain?: (start: () => Promise<void>) => Promise<void> | void;
}

/**
 * Runs `apply` directly when the machine is stopped or nothing needs a power
 * cycle; otherwise stops the machine, applies and starts it again ("restart",
 * the start as `startAgain` says) or fails before touching anything ("refuse").
 */
export async function applyWithPowerCycle<T>(api: Session, vm: VmRef, cycle: PowerCycle, apply: () => Promise<T>): Promise<T> {
  if (!cycle.running || cycle.reasons.length === 0) return apply();
  if (cycle.policy === "refuse") throw new PowerCycleRefusedError(vm, cycle.reasons);
  const clock = cycle.clock ?? realClock;
  clock.log(`vplatform: restarting VM '${vm.name}' to apply ${cycle.reasons.join(", ")}`);
  await powerOff(api, vm, cycle.timeouts, clock);
  const start = () => powerOn(api, vm, cycle.timeouts, clock);
  const startAgain = cycle.startAgain ?? ((s) => s());
  let result: T;
  try {
    result = await apply();
  } catch (err) {
    await startAgain(start); // the change failed; the VM still runs again as before
    throw err;
  }
  await startAgain(start);
  return result;
}
