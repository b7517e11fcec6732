import { AsyncLocalStorage } from "async_hooks";

/**
 * What one engine call (check, create, ...) runs with, carried along its async
 * calls instead of being module state: the platform client of the provider
 * instance that received the call (several instances can share one process),
 * and the engine's time limit for the whole operation (customTimeouts).
 */
export interface OperationContext {
  deadline?: OperationDeadline;
}

export interface OperationDeadline {
  /** Epoch milliseconds. */
  atMs: number;
  /** The limit as the user wrote it, for messages: `customTimeouts.create (5s)`. */
  name: string;
  seconds: number;
}

const current = new AsyncLocalStorage<OperationContext>();

export function runInOperation<T>(context: OperationContext, work: () => Promise<T>): Promise<T> {
  return current.run(context, work);
}

export function currentOperation(): OperationContext | undefined {
  return current.getStore();
}

/** The engine's customTimeouts of `operation` (seconds, 0 = none) as a deadline from now. */
export function engineDeadline(operation: "create" | "update" | "delete", seconds: number, now = Date.now()): OperationDeadline | undefined {
  return seconds > 0 ? { atMs: now + seconds * 1000, name: `customTimeouts.${operation}`, seconds } : undefined;
}
