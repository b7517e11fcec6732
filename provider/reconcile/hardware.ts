import { MachineStatus, toMachineStatus } from "./machineStatus";
import { PlatformApi, Row, str } from "./platform";
import { VmRef, applyWithPowerCycle, vmAction } from "./power";
import type { PowerCyclePolicy } from "../schemas/hardware";
import { OperationTimeouts } from "../schemas/timeouts";
import { Clock, pollUntil, realClock } from "./waitFor";
import { oweStart, settleOwedStart } from "./runtime";
import { powerTimeouts } from "./vm";

/** The VM owning a machine, with what hardware changes depend on. */
export interface MachineOwner {
  ref: VmRef;
  allowHotplug: boolean;
  status: MachineStatus;
}

/** One request: the VM row found by machine key, with live power joined in. */
export async function findMachineOwner(api: PlatformApi, machineKey: string): Promise<MachineOwner | undefined> {
  const rows = await api.list("vms", {
    filter: `machine eq ${machineKey}`,
    fields: "$key,name,machine,allow_hotplug,machine#status#running as live_running,machine#status#status as live_status",
    limit: 1,
  });
  const row = rows[0];
  if (!row) return undefined;
  return {
    ref: { vmKey: str(row.$key), machineKey: str(row.machine), name: str(row.name) },
    allowHotplug: row.allow_hotplug === true || row.allow_hotplug === "true",
    status: toMachineStatus({ running: row.live_running, status: row.live_status }),
  };
}

/**
 * Runs a hardware change (add/remove a drive, NIC or device) under the
 * machine's lock. A running VM without hotplug cannot take it live, so the
 * VM's power-cycle policy decides; changes queued behind this one find the VM
 * stopped and the last of them starts it again (one restart for all of them).
 */
export async function changeHardware<T>(
  api: PlatformApi,
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
    { policy, reasons, running: owner.status.running, timeouts: powerTimeouts(t), clock, startAgain: (start) => oweStart(machineKey, start) },
    change,
  );
  // Here rather than when the lock is released: a failed start is then this change's failure (a partial create).
  await settleOwedStart(machineKey);
  return result;
}

/** Drive status values: online, offline, importing, hotplug... */
export async function readDriveStatus(api: PlatformApi, driveKey: string): Promise<string | undefined> {
  const row: Row | undefined = await api.get("machine_drives", driveKey, "status#status as drive_status");
  return row && str(row.drive_status);
}

/**
 * Removes a drive from a running hotplug VM: ONE unplug (a repeat answers 422
 * "already hotplug"), then wait until the drive is offline, then DELETE.
 */
export async function unplugAndDeleteDrive(
  api: PlatformApi,
  owner: MachineOwner,
  driveKey: string,
  driveName: string,
  t: OperationTimeouts,
  clock: Clock = realClock,
): Promise<void> {
  await vmAction(api, owner.ref, "hotplugdrive", { device: driveKey, unplug: true });
  await pollUntil(
    () => readDriveStatus(api, driveKey),
    (s) => s === undefined || s === "offline",
    (s) => `drive status ${s}`,
    { timeoutSec: t.hotplug, label: `drive '${driveName}' of VM '${owner.ref.name}' to go offline after unplug`, timeoutInput: "hotplug", clock },
  );
  await api.remove("machine_drives", driveKey);
}
