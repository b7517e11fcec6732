/**
 * Every service of the emulator, in the order it registers them: one area of the platform each, with its
 * tables and their behaviour; its table names and events are in model/names/<area>.ts. A service may use the services listed
 * before it, never one after it (test/emulator/layers.test.ts); a new table goes into its area's service.
 * The features (the NAS volume browser, webhooks/tasks/events, the logs) come last: they need options or run
 * on their own, and a unit test registers only the ones it tests (requests/testSupport.ts). See README.md.
 */
import type { EmulatorContext } from "../engine/context";
import type { Service } from "../model/types";
import { automationFeature, resumeSchedules, settleAutomation } from "./automation";
import { billingService } from "./billing";
import { catalogService } from "./catalog";
import { clusterService } from "./cluster";
import { computeService } from "./compute";
import { identityService } from "./identity";
import { logsFeature } from "./logs";
import { mediaService } from "./media";
import { networkService } from "./network";
import { systemService } from "./system";
import { tagsService } from "./tags";
import { volumeBrowserFeature } from "./volume-browser";

/** The services every emulator has. */
export const CORE_SERVICES: readonly Service[] = [
  systemService,
  identityService,
  mediaService,
  computeService,
  clusterService,
  networkService,
  tagsService,
  billingService,
  catalogService,
];

/** The features, after the core services. */
export function allFeatures(opts: { volumes?: Record<string, string> /* volume name -> host directory */ }): Service[] {
  return [volumeBrowserFeature(opts.volumes ?? {}), automationFeature(), logsFeature()];
}

/** Every service, in registration order. */
export function allServices(opts: { volumes?: Record<string, string> } = {}): Service[] {
  return [...CORE_SERVICES, ...allFeatures(opts)];
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
