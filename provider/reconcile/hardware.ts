import type { Session } from "./session";
import { toMachineStatus } from "./machineStatus";
import { type Row, rowsWhere, str } from "./platform";
import { applyWithPowerCycle, powerTimeouts, vmAction } from "./power";
import { sendConfirmed } from "./confirmedAction";
import type { PowerCyclePolicy } from "../schemas/hardware";
import type { OperationTimeouts } from "../schemas/timeouts";
import { type MachineOwner, knownOwner, rememberOwner } from "./machineOwners";
import { waitForRow } from "./statusPoller";
import { type Clock, realClock } from "./waitFor";
import { DRIVE_TABLE, VM_TABLE } from "../schemas/tables";

const OWNER_FIELDS = "$key,name,machine,allow_hotplug,machine#status#running as live_running,machine#status#status as live_status";

export type { MachineOwner };

/**
 * The VM row found by machine key, with live power joined in: one request,
 * shared with concurrent look-ups; none when this process knows the VM
 * (`live` reads it anyway: a removal acts on the power state of the moment).
 */
export async function findMachineOwner(api: Session, machineKey: string, opts: { live?: boolean } = {}): Promise<MachineOwner | undefined> {
  const known = opts.live ? undefined : knownOwner(api, machineKey);
  if (known) return known;
  const rows = await rowsWhere(api, VM_TABLE, "machine", machineKey, OWNER_FIELDS);
  const row = rows[0];
  if (!row) return undefined;
  const owner: MachineOwner = {
    ref: { vmKey: str(row.$key), machineKey: str(row.machine), name: str(row.name) },
    allowHotplug: row.allow_hotplug === true || row.allow_hotplug === "true",
    status: toMachineStatus({ running: row.live_running, status: row.live_status }),
  };
  rememberOwner(api, owner);
  return owner;
}

/**
 * Runs a hardware change (add/remove a drive, NIC or device) under the
 * machine's lock. A running VM without hotplug cannot take it live, so the
 * VM's power-cycle policy decides; changes queued behind this one find the VM
 * stopped and the last of them starts it again (one restart for all of them).
 */
export async function changeHardware<T>(
  api: Session,
  owner: MachineOwner,
  what: string,
  policy: PowerCyclePolicy,
  t: OperationTimeouts,
  change: () => Promise<T>,
  clock: Clock = realClock,
): Promise<T> {
  const reasons = owner.status.running && !owner.allowHotplug ? [`${what} (VM has no hotplug)`] : [];
  const machineKey = owner.ref.machineKey;
  const result = await applyWithPowerCycle(
    api,
    owner.ref,
    {
      policy,
      reasons,
      running: owner.status.running,
      timeouts: powerTimeouts(t),
      clock,
      startAgain: (start) => api.oweStart(machineKey, start),
    },
    change,
  );
  // Here rather than when the lock is released: a failed start is then this change's failure (a partial create).
  await api.settleOwedStart(machineKey);
  return result;
}

/** Drive status values: online, offline, importing, hotplugging; NIC: up, down, hotplugging. */
const HOTPLUG_STATUS_FIELDS = "status#status as hotplug_status";
const hotplugStatus = (row: Row | undefined) => (row ? str(row.hotplug_status) : undefined);

/**
 * Removes a drive from a running hotplug VM: ONE unplug (a repeat answers 422
 * "already hotplug"), then wait until the drive is offline, then DELETE.
 */
export async function unplugAndDeleteDrive(
  api: Session,
  owner: MachineOwner,
  driveKey: string,
  driveName: string,
  t: OperationTimeouts,
  clock: Clock = realClock,
): Promise<void> {
  const what = `drive '${driveName}' of VM '${owner.ref.name}'`;
  // Sent once unless the drive's status shows it not taken: a repeat of a taken unplug is refused (422).
  await sendConfirmed(
    {
      what: `unplug of ${what}`,
      send: () => vmAction(api, owner.ref, "hotplugdrive", { device: driveKey, unplug: true }),
      async look() {
        const status = hotplugStatus(await api.get(DRIVE_TABLE, driveKey, HOTPLUG_STATUS_FIELDS));
        return { taken: status === "online" ? undefined : true, state: `drive status ${status ?? "gone"}` };
      },
      limitSec: t.hotplug,
      timeoutInput: "hotplug",
    },
    clock,
  );
  await waitForRow(
    api,
    DRIVE_TABLE,
    HOTPLUG_STATUS_FIELDS,
    {
      key: driveKey,
      kind: "unplug",
      done: (r) => r === undefined || hotplugStatus(r) === "offline",
      describe: (r) => `drive status ${hotplugStatus(r)}`,
    },
    {
      timeoutSec: t.hotplug,
      label: `${what} to go offline after unplug`,
      timeoutInput: "hotplug",
      clock,
    },
  );
  await api.remove(DRIVE_TABLE, driveKey);
}

/** What a drive or NIC added to a running VM reads once plugged in. */
const PLUGGED_IN: Record<string, string> = { machine_drives: "online", machine_nics: "up" };

/**
 * A drive or NIC added to a running VM is hot-plugged; it is created when the
 * platform says it is online (up), so a change or an unplug right after does
 * not meet "already hotplugging this device".
 */
export async function waitUntilPluggedIn(
  api: Session,
  table: string,
  key: string,
  what: string,
  t: OperationTimeouts,
  clock: Clock = realClock,
): Promise<void> {
  const target = PLUGGED_IN[table];
  if (!target) return;
  await waitForRow(
    api,
    table,
    HOTPLUG_STATUS_FIELDS,
    {
      key,
      kind: "hot-plug",
      done: (r) => {
        if (!r) throw new Error(`vplatform: ${what} (key ${key}) disappeared while it was being hot-plugged`);
        return hotplugStatus(r) !== "hotplugging";
      },
      describe: (r) => `status ${hotplugStatus(r)}`,
    },
    { timeoutSec: t.hotplug, label: `${what} to be hot-plugged (${target})`, timeoutInput: "hotplug", clock },
  );
}
