/**
 * VM power transitions (spec "VM power"): each checks the current machine
 * status, changes it at once to the transitional value and schedules the final
 * state after a delay multiplied by the time scale.
 */
import type { EmulatorContext } from "../../engine/context";
import { conflict } from "../../model/errors";
import type { Row } from "../../model/types";
import { placeVm } from "./capacity";
import { recordStatsHistory } from "./machineStats";
import { assertNotBusy, statusOfVm, stoppedFields } from "./machineState";
import { COMPUTE, VM_EVENTS } from "../../model/names/compute";

/** Unscaled durations (ms) of the transitional states. */
export const DURATIONS = {
  start: 2000,
  stop: 3000,
  reset: 2000,
  clone: 5000,
  snapshot: 3000,
  restore: 5000,
  hotplug: 2000,
  migrate: 3000,
};

function setStatus(ctx: EmulatorContext, vm: Row, changes: Record<string, unknown>): Row {
  // Samples due before the change carry the figures of the state the machine is leaving.
  recordStatsHistory(ctx);
  const status = statusOfVm(ctx, vm);
  return ctx.update(COMPUTE.machine_status, status.$key, { ...changes, last_update: ctx.nowSeconds() });
}

function setHardwareOnline(ctx: EmulatorContext, vm: Row, online: boolean): void {
  for (const drive of ctx.find(COMPUTE.machine_drives, (d) => d.machine === vm.machine)) {
    const status = ctx.get(COMPUTE.machine_drive_status, drive.$key);
    if (status) ctx.update(COMPUTE.machine_drive_status, status.$key, { status: online && drive.enabled !== false ? "online" : "offline" });
  }
  for (const nic of ctx.find(COMPUTE.machine_nics, (n) => n.machine === vm.machine)) {
    const status = ctx.get(COMPUTE.machine_nic_status, nic.$key);
    if (status) ctx.update(COMPUTE.machine_nic_status, status.$key, { status: online && nic.enabled !== false ? "up" : "down" });
  }
}

/** After `ms`, runs `fn` if the status is still `expected` (a kill or another change wins). */
function later(ctx: EmulatorContext, vm: Row, ms: number, expected: string, fn: () => void): void {
  ctx.schedule(ms, () => {
    const current = ctx.get(COMPUTE.machine_status, vm.machine);
    if (current && current.status === expected && ctx.get(COMPUTE.vms, vm.$key)) fn();
  });
}

function markRunning(ctx: EmulatorContext, vm: Row): void {
  setStatus(ctx, vm, {
    status: "running",
    running: true,
    state: "online",
    started: ctx.nowSeconds(),
    migratable: true,
    agent_version: vm.guest_agent ? "emulated-agent 1.0" : "",
  });
  setHardwareOnline(ctx, vm, true);
  ctx.emit(VM_EVENTS.poweron, COMPUTE.vms, vm);
}

export function powerOn(ctx: EmulatorContext, vm: Row, preferredNode?: unknown): void {
  const status = statusOfVm(ctx, vm);
  if (status.status === "running" || status.running === true) throw conflict("cannot power on, already running");
  assertNotBusy(status);
  const node = placeVm(ctx, vm, preferredNode);
  ctx.update(COMPUTE.vms, vm.$key, { need_restart: false });
  setStatus(ctx, vm, {
    status: "starting",
    powerstate: true,
    running: false,
    state: "online",
    node: node.$key,
    running_cores: vm.cpu_cores,
    running_ram: vm.ram,
  });
  later(ctx, vm, DURATIONS.start, "starting", () => markRunning(ctx, vm));
}

function markStopped(ctx: EmulatorContext, vm: Row): void {
  setStatus(ctx, vm, stoppedFields());
  setHardwareOnline(ctx, vm, false);
  ctx.update(COMPUTE.vms, vm.$key, { need_restart: false });
  ctx.emit(VM_EVENTS.poweroff, COMPUTE.vms, vm);
}

/** Graceful ACPI shutdown. */
export function powerOff(ctx: EmulatorContext, vm: Row): void {
  const status = statusOfVm(ctx, vm);
  if (status.status !== "running") {
    if (status.powerstate !== true) throw conflict("cannot power off, not running");
    assertNotBusy(status);
  }
  setStatus(ctx, vm, { status: "stopping" });
  later(ctx, vm, DURATIONS.stop, "stopping", () => markStopped(ctx, vm));
}

/** Forced power off: immediate, also during starting/stopping. */
export function kill(ctx: EmulatorContext, vm: Row): void {
  const status = statusOfVm(ctx, vm);
  if (status.powerstate !== true) throw conflict("cannot power off, not running");
  if (["cloning", "snapshotting", "restoring", "migrating"].includes(String(status.status))) assertNotBusy(status);
  markStopped(ctx, vm);
}

/** Reset: hard (immediate restart) or graceful (guest reboot through stopping and starting). */
export function reset(ctx: EmulatorContext, vm: Row, graceful: boolean): void {
  const status = statusOfVm(ctx, vm);
  if (status.status !== "running") {
    if (status.powerstate !== true) throw conflict("cannot reset, not running");
    assertNotBusy(status);
  }
  ctx.update(COMPUTE.vms, vm.$key, { need_restart: false });
  const restart = () => {
    setStatus(ctx, vm, { status: "starting", running: false });
    later(ctx, vm, DURATIONS.reset, "starting", () => markRunning(ctx, vm));
  };
  if (graceful) {
    setStatus(ctx, vm, { status: "stopping" });
    later(ctx, vm, DURATIONS.stop, "stopping", restart);
  } else {
    restart();
  }
}

/** Live migration to another node of the cluster. */
export function migrate(ctx: EmulatorContext, vm: Row, node: Row | undefined): void {
  const status = statusOfVm(ctx, vm);
  if (status.status !== "running") throw conflict("cannot migrate, not running");
  const source = status.node;
  const target = node ?? placeVm(ctx, { ...vm, cluster: vm.cluster }, undefined);
  if (target.$key === source) return;
  setStatus(ctx, vm, { status: "migrating", migration_destination: target.$key });
  later(ctx, vm, DURATIONS.migrate, "migrating", () =>
    setStatus(ctx, vm, { status: "running", node: target.$key, migrated_node: source, migration_destination: null }),
  );
}

/** Suspend to disk: the VM's memory is saved and its node's resources freed; a poweron resumes it. */
export function hibernate(ctx: EmulatorContext, vm: Row): void {
  const status = statusOfVm(ctx, vm);
  if (status.status !== "running") throw conflict("cannot hibernate, not running");
  setStatus(ctx, vm, { status: "hibernating" });
  later(ctx, vm, DURATIONS.stop, "hibernating", () => {
    setStatus(ctx, vm, { ...stoppedFields(), status: "hibernated" });
    setHardwareOnline(ctx, vm, false);
    ctx.emit(VM_EVENTS.poweroff, COMPUTE.vms, vm);
  });
}
