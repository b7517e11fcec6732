/**
 * Listening to the context's bus: `BusEvent` (model/events.ts) is the union of every service's events, each
 * declared in its names file (model/names/<area>.ts), so a listener to an event no service emits (a misspelt name, a table that has none)
 * does not compile, and neither does emitting one (events.typecheck.ts).
 */
import type { BusEvent } from "../model/events";
import type { EmulatorContext, EmulatorEvent } from "../model/types";

/** Calls `listener` with every `name` event of the context's bus. */
export function onBusEvent(ctx: EmulatorContext, name: BusEvent, listener: (event: EmulatorEvent) => void): void {
  ctx.events.on(name, listener);
}
