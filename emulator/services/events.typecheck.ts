// Compile-time checks of the bus's event names, run by `npm run build` (tsc): each `@ts-expect-error` fails
// the build if the line compiles. Nothing here runs.
import type { EmulatorContext } from "../model/types";
import { COMPUTE, VM_EVENTS } from "./compute/names";
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
}
