/**
 * The events of the context's bus: the union of every service's own, each declared in its names.ts. A service
 * listens through `onBusEvent`, so a listener to an event no service emits (a misspelt name, a table that has
 * none) does not compile (events.typecheck.ts).
 */
import type { EmulatorContext, EmulatorEvent } from "../model/types";
import type { AutomationEvent } from "./automation/names";
import type { BillingEvent } from "./billing/names";
import type { CatalogEvent } from "./catalog/names";
import type { ClusterEvent } from "./cluster/names";
import type { ComputeEvent } from "./compute/names";
import type { IdentityEvent } from "./identity/names";
import type { LogsEvent } from "./logs/names";
import type { MediaEvent } from "./media/names";
import type { NetworkEvent } from "./network/names";
import type { SystemEvent } from "./system/names";
import type { TagsEvent } from "./tags/names";
import type { VolumeBrowserEvent } from "./volume-browser/names";

export type BusEvent =
  | SystemEvent
  | IdentityEvent
  | MediaEvent
  | ComputeEvent
  | ClusterEvent
  | NetworkEvent
  | TagsEvent
  | BillingEvent
  | CatalogEvent
  | VolumeBrowserEvent
  | AutomationEvent
  | LogsEvent;

/** Calls `listener` with every `name` event of the context's bus. */
export function onBusEvent(ctx: EmulatorContext, name: BusEvent, listener: (event: EmulatorEvent) => void): void {
  ctx.events.on(name, listener);
}
