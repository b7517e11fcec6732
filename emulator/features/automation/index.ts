/**
 * The webhooks, tasks and events feature: its tables, plus one subscription to
 * every event on the context bus that runs the tasks whose events match.
 * Closing the context aborts deliveries in flight.
 */
import type { EmulatorEvent } from "../../core/context";
import type { FeatureModule } from "../../tables/types";
import { dispatchEvent } from "./events";
import { runtimeOf } from "./runtime";
import { automationTables } from "./tables";

export function automationFeature(): FeatureModule {
  return {
    name: "automation",
    tables: automationTables,
    setup: (ctx) => {
      const onEvent = (event: EmulatorEvent) => dispatchEvent(ctx, event);
      ctx.events.on("*", onEvent);
      // EmulatorContext.close() drops every listener: that is the moment to stop deliveries.
      ctx.events.on("removeListener", (_name: string, listener: unknown) => {
        if (listener === onEvent) runtimeOf(ctx).close();
      });
    },
  };
}
