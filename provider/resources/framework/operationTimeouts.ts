import { currentDeadline } from "../../client/operationDeadline";
import type { OperationTimeouts } from "../../schemas/timeouts";
import { DEFAULT_TIMEOUTS } from "../../schemas/common";

export { DEFAULT_TIMEOUTS };

/**
 * Engine customTimeouts never reach a dynamic provider, so each resource takes
 * a `timeouts` input (seconds); unset entries use the spec's suggested client
 * timeouts (upper end of each range). The plugin receives customTimeouts.
 */

export function resolveTimeouts(input: Partial<OperationTimeouts> | undefined): OperationTimeouts {
  const declared = { ...DEFAULT_TIMEOUTS, ...(input ?? {}) };
  const engine = currentDeadline();
  if (!engine?.bindsWaits) return declared;
  // customTimeouts (plugin only) beat the input: any wait may take what is left of the
  // operation's time; a graceful shutdown still gives way to the kill after its own limit.
  const left = Math.max(1, (engine.at - Date.now()) / 1000);
  const limits = Object.fromEntries(Object.keys(declared).map((k) => [k, left])) as unknown as OperationTimeouts;
  return { ...limits, gracefulShutdown: Math.min(declared.gracefulShutdown, left) };
}
