import { OperationTimeouts } from "../schemas/timeouts";
import { DEFAULT_TIMEOUTS } from "../schemas/common";

export { DEFAULT_TIMEOUTS };

/**
 * Engine customTimeouts never reach a dynamic provider, so each resource takes
 * a `timeouts` input (seconds); unset entries use the spec's suggested client
 * timeouts (upper end of each range).
 */

export function resolveTimeouts(input: Partial<OperationTimeouts> | undefined): OperationTimeouts {
  return { ...DEFAULT_TIMEOUTS, ...(input ?? {}) };
}
