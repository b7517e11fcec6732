// Compile-time checks of the bus's event names, run by `npm run build` (tsc): each `@ts-expect-error` fails
// the build if the line compiles. Nothing here runs.
import type { EmulatorContext, Row } from "../model/types";
import { COMPUTE, VM_EVENTS } from "../model/names/compute";
import { onBusEvent } from "./events";
import { rowEvent } from "../model/events";

export function busEventNames(ctx: EmulatorContext): void {
  const ignore = () => undefined;
  // A service's own events and any table's row changes are heard.
  onBusEvent(ctx, VM_EVENTS.poweron, ignore);
  onBusEvent(ctx, rowEvent(COMPUTE.machines, "deleted"), ignore);
  // @ts-expect-error an event the VMs do not have
  onBusEvent(ctx, `${COMPUTE.vms}.started` as const, ignore);
  // @ts-expect-error a table no service serves
  onBusEvent(ctx, rowEvent("vm", "deleted"), ignore);
  // @ts-expect-error any string is not an event
  onBusEvent(ctx, VM_EVENTS.poweron as string, ignore);
}

export function emittedEventNames(ctx: EmulatorContext, vm: Row): void {
  // A service emits its own events.
  ctx.emit(VM_EVENTS.snapshot, COMPUTE.vms, vm);
  // @ts-expect-error a misspelt event
  ctx.emit(`${COMPUTE.vms}.poweredon` as const, COMPUTE.vms, vm);
  // @ts-expect-error an event of a table no service serves
  ctx.emit(rowEvent("vm", "updated"), "vm", vm);
  // @ts-expect-error any string is not an event
  ctx.emit(VM_EVENTS.poweron as string, COMPUTE.vms, vm);
}
