/**
 * Feature modules of the emulator beyond the core tables: the NAS volume
 * browser, webhooks/tasks/events and the logs. The emulator registers each with
 * `EmulatorContext.registerFeature` (see README.md in this folder).
 */
import type { EmulatorContext } from "../engine/context";
import type { FeatureModule } from "../model/types";
import { automationFeature, resumeSchedules, settleAutomation } from "./automation";
import { logsFeature } from "./logs";
import { volumeBrowserFeature } from "./volume-browser";

export function allFeatures(opts: { volumes?: Record<string, string> /* volume name -> host directory */ }): FeatureModule[] {
  return [volumeBrowserFeature(opts.volumes ?? {}), automationFeature(), logsFeature()];
}

/**
 * Call after `loadState` (persistence): settles what the features had in
 * flight (webhook deliveries, task runs) and sets the schedules' timers again
 * (loading rows emits no events). Volume browser jobs are transient.
 */
export function settleFeaturesAfterLoad(ctx: EmulatorContext): void {
  settleAutomation(ctx);
  resumeSchedules(ctx);
}
