import { OperationTimeouts } from "../reconcile/timeouts";

/**
 * Engine customTimeouts never reach a dynamic provider, so each resource takes
 * a `timeouts` input (seconds); unset entries use the spec's suggested client
 * timeouts (upper end of each range).
 */
export const DEFAULT_TIMEOUTS: OperationTimeouts = {
  create: 600,
  clone: 1800,
  snapshot: 300,
  restore: 900,
  powerChange: 60,
  delete: 300,
  gracefulShutdown: 120,
  forcedShutdown: 30,
  reboot: 120,
  hotplug: 300,
};

export function resolveTimeouts(input: Partial<OperationTimeouts> | undefined): OperationTimeouts {
  return { ...DEFAULT_TIMEOUTS, ...(input ?? {}) };
}
