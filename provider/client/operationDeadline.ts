import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The one deadline of a resource operation (check, create, read, update,
 * delete), carried with it through its async calls: the client retries and
 * paces within it, batched reads and pollers take the latest of the
 * operations they serve, and waits end at it (see `bindsWaits`). Every wait
 * takes its bound from `at`, so no timer or signal is needed to enforce it.
 * Concurrent operations each see their own.
 */
export interface OperationDeadline {
  /** Epoch milliseconds. */
  at: number;
  /** The limit that sets it, as the user writes it, for messages: `timeouts.update`, `customTimeouts.delete`. */
  limit: string;
  seconds: number;
  /**
   * The engine's customTimeouts bound the whole operation, so every wait in it takes at most what is left;
   * a resource's `timeouts.<operation>` bounds its retries and budget waits, while each wait keeps its own limit.
   */
  bindsWaits: boolean;
}

/** A deadline `seconds` from `now`. */
export function deadlineIn(seconds: number, limit: string, bindsWaits = false, now = Date.now()): OperationDeadline {
  return { at: now + Math.max(0, seconds * 1000), limit, seconds, bindsWaits };
}

/** The engine's customTimeouts of `operation` (seconds, 0 = none) as a deadline from now. */
export function engineDeadline(
  operation: "create" | "update" | "delete",
  seconds: number,
  now = Date.now(),
): OperationDeadline | undefined {
  return seconds > 0 ? deadlineIn(seconds, `customTimeouts.${operation}`, true, now) : undefined;
}

const current = new AsyncLocalStorage<OperationDeadline>();

/** Runs `work` under `deadline` (none: as it is). */
export function withDeadline<T>(deadline: OperationDeadline | undefined, work: () => Promise<T>): Promise<T> {
  return deadline ? current.run(deadline, work) : work();
}

export function currentDeadline(): OperationDeadline | undefined {
  return current.getStore();
}

/** Work shared by several operations (a coalesced poll or read) runs under the latest of their deadlines. */
export function latest(deadlines: OperationDeadline[]): OperationDeadline | undefined {
  return deadlines.reduce<OperationDeadline | undefined>((a, d) => (!a || d.at > a.at ? d : a), undefined);
}
