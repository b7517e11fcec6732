import type { Session } from "./session";
import { sendConfirmed } from "./confirmedAction";
import { isIdle, lookAtMachineStatus, type MachineStatus, waitForMachineStatus } from "./machineStatus";
import { type Row, str } from "./platform";
import { type VmRef, vmAction } from "./power";
import { type Clock, realClock } from "./waitFor";

/** The kind of a restore's wait (learnedDurations): a reset's restores with power-on are kept with its stack under it. */
export const RESTORE_WAIT = "restore";

export interface Restored {
  /** The machine watched: the answer's, if any (the spec does not say whether a restore keeps the VM's machine), else the VM's. */
  machineKey: string;
  /** Its status once the restore was over. */
  status: MachineStatus;
}

export interface RestoreOptions {
  /** Added to the action's params (a reset asks for `poweron`). */
  params?: Row;
  /**
   * The VM's status now, when the caller knows it (a reset has just looked, or
   * killed it): no look before the restore. Without `lastUpdate` a look after a
   * lost answer takes any status but stopped as the restore's doing; a stopped
   * VM is restored again (the same snapshot: no change is lost).
   */
  before?: MachineStatus;
  /** When the restore is over; default: the status left restoring. */
  until?: (s: MachineStatus) => boolean;
  /** Runs once the restore is sent, before its wait (a reset wave's VMs start their waits together). */
  sent?: () => Promise<void>;
  clock?: Clock;
}

/**
 * Rolls the stopped VM back to the snapshot, then waits until the status
 * leaves restoring; every read goes through the shared poller, so the
 * restores of many VMs share their reads. Run it under the machine's lock.
 */
export async function restoreSnapshot(
  api: Session,
  vm: VmRef,
  snapshotKey: string,
  timeoutSec: number,
  opts: RestoreOptions = {},
): Promise<Restored> {
  const clock = opts.clock ?? realClock;
  const wait = (machineKey: string, kind: string, label: string, until = isIdle) =>
    waitForMachineStatus(api, machineKey, until, { kind, timeoutSec, label, timeoutInput: "restore", clock });
  // A restore whose answer an earlier run lost may still be running: wait it out rather than be refused (409 in progress).
  if (!opts.before || !isIdle(opts.before))
    await wait(vm.machineKey, "earlier operation", `VM '${vm.name}' to finish its running operation`);
  let machineKey = vm.machineKey; // the answer's, when one comes
  const look = () => lookAtMachineStatus(api, vm.machineKey, `the status of VM '${vm.name}'`, clock);
  const before = opts.before && isIdle(opts.before) ? opts.before : await look();
  await sendConfirmed(
    {
      what: `restore of VM '${vm.name}' to snapshot ${snapshotKey}`,
      async send() {
        const answer = await vmAction(api, vm, "restore", { snapshot_id: snapshotKey, ...opts.params });
        if (answer.response?.machine !== undefined) machineKey = str(answer.response.machine);
      },
      // Under the machine's lock on a stopped VM only the restore changes its status: restoring, another status
      // (started by `poweron`) or changed since `before` (a restore already over). One over within the second of
      // `before`, back where it was, is sent again: the same snapshot.
      async look() {
        const s = await look();
        const changed = s.status === "restoring" || s.status !== before.status || (s.lastUpdate ?? 0) > (before.lastUpdate ?? Infinity);
        return { taken: changed ? true : undefined, state: `status ${s.status} (last changed at ${s.lastUpdate})` };
      },
      limitSec: timeoutSec,
      timeoutInput: "restore",
    },
    clock,
  );
  await opts.sent?.();
  const status = await wait(machineKey, RESTORE_WAIT, `VM '${vm.name}' to finish restoring`, opts.until);
  return { machineKey, status };
}
