/**
 * Lookups and state shared by the VM tables and actions: the VM ↔ machine ↔
 * machine_status links, power-state predicates and the "stopped" field set.
 */
import type { EmulatorContext } from "../../engine/context";
import { ApiError, conflict } from "../../model/errors";
import type { Row } from "../../model/types";
import { COMPUTE } from "../../model/names/compute";

/** Statuses of long operations during which other operations get 409. */
export const BUSY_STATUSES = new Set([
  "cloning",
  "snapshotting",
  "restoring",
  "starting",
  "stopping",
  "migrating",
  "restarting",
  "hibernating",
]);

export function statusOfMachine(ctx: EmulatorContext, machine: unknown): Row {
  const status = ctx.get(COMPUTE.machine_status, machine);
  if (!status) throw new ApiError(500, `machine ${String(machine)} has no status row`);
  return status;
}

export function statusOfVm(ctx: EmulatorContext, vm: Row): Row {
  return statusOfMachine(ctx, vm.machine);
}

export function vmOfMachine(ctx: EmulatorContext, machine: unknown): Row | undefined {
  return ctx.find(COMPUTE.vms, (vm) => vm.machine === machine)[0];
}

/** Powered on in any way (starting, running, stopping, or a long operation on a running VM). */
/** Whether the machine is a node's own (not a workload running on it). */
export function isNodeMachine(ctx: EmulatorContext, machine: unknown): boolean {
  const node = ctx.get(COMPUTE.machines, machine)?.node;
  return node !== null && node !== undefined;
}

export function isPoweredOn(status: Row): boolean {
  return status.powerstate === true;
}

export function assertNotBusy(status: Row): void {
  if (BUSY_STATUSES.has(String(status.status))) {
    throw conflict(`operation in progress: the VM is ${status.status}`);
  }
}

export function stoppedFields(): Record<string, unknown> {
  return {
    running: false,
    powerstate: false,
    status: "stopped",
    status_info: "",
    state: "offline",
    node: null,
    running_cores: 0,
    running_ram: 0,
    agent_version: "",
    agent_features: [],
    agent_guest_info: [],
    migratable: false,
  };
}

/** Sets the status text for the duration of a long operation, then restores it (or a given final state). */
export function runLongOperation(ctx: EmulatorContext, machines: unknown[], status: string, durationMs: number, done?: () => void): void {
  const previous = machines.map((m) => ({ machine: m, status: statusOfMachine(ctx, m).status }));
  for (const m of machines) ctx.update(COMPUTE.machine_status, statusOfMachine(ctx, m).$key, { status, last_update: ctx.nowSeconds() });
  ctx.schedule(durationMs, () => {
    for (const { machine, status: before } of previous) {
      const row = ctx.get(COMPUTE.machine_status, machine);
      if (row && row.status === status) ctx.update(COMPUTE.machine_status, row.$key, { status: before, last_update: ctx.nowSeconds() });
    }
    done?.();
  });
}
