/**
 * Per-context state of the automation feature that does not belong in rows:
 * in-flight deliveries (aborted when the context closes), one-time tasks
 * already started, how many runs of each task are in progress and the timers
 * of armed schedules.
 */
import type { EmulatorContext } from "../../engine/context";
import type { RowKey } from "../../model/types";

export class AutomationRuntime {
  private readonly inFlight = new Set<AbortController>();
  private closed = false;
  /** One-time tasks already started: a second trigger before their deletion must not run them again. */
  readonly startedOnce = new Set<RowKey>();
  /** Runs in progress per task (a task is `running` while any is). */
  readonly activeRuns = new Map<RowKey, number>();
  /** The cancel function of each armed schedule's timer. */
  readonly scheduleTimers = new Map<RowKey, () => void>();

  /** A signal for one delivery; already aborted once the context is closed. */
  track(): { signal: AbortSignal; release: () => void } {
    const controller = new AbortController();
    if (this.closed) controller.abort();
    else this.inFlight.add(controller);
    return { signal: controller.signal, release: () => this.inFlight.delete(controller) };
  }

  get isClosed(): boolean {
    return this.closed;
  }

  close(): void {
    this.closed = true;
    for (const controller of this.inFlight) controller.abort();
    this.inFlight.clear();
  }
}

const runtimes = new WeakMap<EmulatorContext, AutomationRuntime>();

export function runtimeOf(ctx: EmulatorContext): AutomationRuntime {
  let runtime = runtimes.get(ctx);
  if (!runtime) {
    runtime = new AutomationRuntime();
    runtimes.set(ctx, runtime);
  }
  return runtime;
}
