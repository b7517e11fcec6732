import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The deadline of the resource operation a request belongs to, so waits that
 * are not the resource's own (the request budget, a 429's Retry-After) may
 * take as long as the resource's timeout allows and no longer. Carried by the
 * async context: concurrent operations of one process each see their own.
 */
export interface OperationDeadline {
  /** Epoch milliseconds. */
  at: number;
  /** The limit that sets it, for messages: `timeouts.create`, `customTimeouts.delete`. */
  limit: string;
}

const current = new AsyncLocalStorage<OperationDeadline>();

export function withOperationDeadline<T>(seconds: number, limit: string, work: () => Promise<T>): Promise<T> {
  return withDeadlineAt({ at: Date.now() + seconds * 1000, limit }, work);
}

/** Work shared by several operations (a coalesced poll) runs under the latest of their deadlines. */
export function withDeadlineAt<T>(deadline: OperationDeadline, work: () => Promise<T>): Promise<T> {
  return current.run(deadline, work);
}

export function operationDeadline(): OperationDeadline | undefined {
  return current.getStore();
}
