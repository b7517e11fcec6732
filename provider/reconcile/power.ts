import type { Session } from "./session";
import type { PowerCyclePolicy } from "../schemas/hardware";
import { type MachineStatus, isRunning, isStopped, lookAtMachineStatus, waitForMachineStatus } from "./machineStatus";
import type { Row } from "./platform";
import { sendConfirmed } from "./confirmedAction";
import { forgetOwner } from "./machineOwners";
import { waitingForStart } from "./queuedStarts";
import { type Clock, WaitTimeoutError, realClock } from "./waitFor";
import { forTheWholeRun } from "../client/engineLog";

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

/** Resolves to the action's answer (clone: `response.vmkey`/`machinekey`; restore: `response.machine`). */
export function vmAction(api: Session, vm: VmRef, action: string, params?: Row): Promise<{ response?: Row }> {
  forgetOwner(api, vm.machineKey); // what this process knew of the machine's power no longer holds
  return api.action("vm_actions", params === undefined ? { vm: vm.vmKey, action } : { vm: vm.vmKey, action, params });
}

/** A power action, the state it brings the machine to, and the states that show it was taken (the machine is on its way). */
interface PowerAction {
  action: string;
  /** For messages: "power-on". */
  name: string;
  params?: Row;
  target: (s: MachineStatus) => boolean;
  underway: (s: MachineStatus) => boolean;
}

const POWER_ON: PowerAction = {
  action: "poweron",
  name: "power-on",
  params: {},
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
async function sendPowerAction(api: Session, vm: VmRef, power: PowerAction, t: PowerTimeouts, clock: Clock): Promise<boolean> {
  const outcome = await sendConfirmed(
    {
      what: `${power.name} of VM '${vm.name}'`,
      send: () => vmAction(api, vm, power.action, power.params),
      async look() {
        const s = await lookAtMachineStatus(api, vm.machineKey, `the status of VM '${vm.name}'`, clock);
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

export async function powerOn(api: Session, vm: VmRef, t: PowerTimeouts, clock: Clock = realClock): Promise<void> {
  if (!(await sendPowerAction(api, vm, POWER_ON, t, clock))) return;
  const wait = () =>
    waitForMachineStatus(api, vm.machineKey, isRunning, {
      kind: "power-on",
      timeoutSec: t.powerChange,
      label: `VM '${vm.name}' to reach running`,
      timeoutInput: "powerChange",
      clock,
    });
  // The hint is about the run's parallelism, not this VM: on a resource, the engine would repeat it on each of its rows.
  await waitingForStart(api, wait, (line) => forTheWholeRun(() => clock.log(line)));
}

/** Graceful ACPI shutdown; a kill only when the guest ignores it for `gracefulShutdown` seconds. */
export async function powerOff(api: Session, vm: VmRef, t: PowerTimeouts, clock: Clock = realClock): Promise<void> {
  if (!(await sendPowerAction(api, vm, POWER_OFF, t, clock))) return;
  try {
    await waitForMachineStatus(api, vm.machineKey, isStopped, {
      kind: "shutdown",
      timeoutSec: t.gracefulShutdown,
      label: `VM '${vm.name}' to shut down`,
      clock,
    });
    return;
  } catch (err) {
    if (!(err instanceof WaitTimeoutError)) throw err;
  }
  clock.log(`vplatform: VM '${vm.name}' ignored the shutdown signal for ${t.gracefulShutdown}s; forcing it off (kill)`);
  await kill(api, vm, t, clock);
}

/** Forced power off (what the guest had in memory is lost): for a VM about to be rolled back, or that ignored a shutdown. */
export async function kill(api: Session, vm: VmRef, t: PowerTimeouts, clock: Clock = realClock): Promise<void> {
  if (!(await sendPowerAction(api, vm, KILL, t, clock))) return;
  await waitForMachineStatus(api, vm.machineKey, isStopped, {
    kind: "kill",
    timeoutSec: t.forcedShutdown,
    label: `VM '${vm.name}' to stop after kill`,
    timeoutInput: "forcedShutdown",
    clock,
  });
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
