import { errorText } from "./platform";
import { perSession, type Session } from "./session";
import { type Clock, realClock } from "./waitFor";

/**
 * The machine deletions of a session (a VM's deletion takes its NICs, drives
 * and devices with it): which are in flight and which failed. A row the
 * platform refuses to delete while machines still use it (a vnet "in use by
 * N NIC(s)") waits on these instead of resending its DELETE every few seconds.
 */
export class MachineDeletions {
  readonly #inFlight = new Map<string, string>();
  readonly #failed = new Map<string, { what: string; error: unknown }>();
  readonly #ended = new Set<string>();
  #waiting: (() => void)[] = [];

  /** Runs the deletion of `machineKey` (`what`: "VM 'web'"), recording it in flight, then failed or over. */
  async run<T>(machineKey: string, what: string, work: () => Promise<T>): Promise<T> {
    this.#inFlight.set(machineKey, what);
    this.#failed.delete(machineKey);
    this.#changed();
    try {
      const result = await work();
      this.#ended.add(machineKey);
      return result;
    } catch (err) {
      this.#failed.set(machineKey, { what, error: err });
      throw err;
    } finally {
      this.#inFlight.delete(machineKey);
      this.#changed();
    }
  }

  /** Whether the machine's deletion runs now; without a key, whether any does (the engine is still deleting). */
  inFlight(machineKey?: string): boolean {
    return machineKey === undefined ? this.#inFlight.size > 0 : this.#inFlight.has(machineKey);
  }

  failed(machineKey: string): { what: string; error: unknown } | undefined {
    return this.#failed.get(machineKey);
  }

  /** Whether a deletion of the machine ran in this session and succeeded. */
  ended(machineKey: string): boolean {
    return this.#ended.has(machineKey);
  }

  /** Resolves at the next start or end of a deletion, or after `ms`. */
  async changeWithin(ms: number, clock: Clock): Promise<void> {
    const cancel = new AbortController();
    await Promise.race([clock.sleep(ms, cancel.signal), new Promise<void>((resolve) => this.#waiting.push(resolve))]);
    cancel.abort();
  }

  #changed(): void {
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const wake of waiting) wake();
  }
}

export const machineDeletions = perSession(() => new MachineDeletions());

/**
 * How long a row waits for the deletion of a machine still using it to start,
 * once no deletion runs: the engine starts a VM's deletion with its
 * dependents' (the vnet's among them), so it comes at once, or after others
 * its parallelism holds it behind, or not at all.
 */
export const START_GRACE_MS = 5_000;

export interface BlockedDeletion {
  /** For messages: "vnet 'lan'". */
  what: string;
  /** Sends the DELETE: undefined once the row is gone, else the platform's "in use" answer. */
  remove(): Promise<string | undefined>;
  /** The machines (keys) whose rows still use it, and how to name them ("VM 'web'", "machine 12"). */
  users(): Promise<string[]>;
  name(machineKeys: string[]): Promise<string[]>;
  clock?: Clock;
}

/**
 * Deletes a row that machines being deleted still use: after the platform's
 * "in use", it waits for their deletions (not resending its DELETE) and sends
 * it again once they are over. It fails at once, naming them, when one of them
 * failed in this run, or when none has started START_GRACE_MS after the last
 * machine deletion of the session ended and they still use it (nothing in this run is deleting them). Bounded by the operation's time limit like any wait.
 */
export async function deleteWhenFree(api: Session, row: BlockedDeletion, limitSec: number): Promise<void> {
  const clock = row.clock ?? realClock;
  const ledger = machineDeletions(api);
  const deadline = clock.now() + limitSec * 1000;
  for (;;) {
    const inUse = await row.remove();
    if (inUse === undefined) return;
    const users = await row.users();
    const endedBefore = new Set(users.filter((m) => ledger.ended(m)));
    let graceEnds = clock.now() + START_GRACE_MS;
    if (users.length === 0) {
      // Freed between the DELETE and the look (or used by what this cannot see): the next DELETE tells, within the limit.
      if (clock.now() >= deadline)
        throw new Error(`vplatform: ${row.what} is still in use (${inUse}) after ${limitSec} s (timeouts.delete)`);
      await clock.sleep(1_000);
      continue;
    }
    for (;;) {
      const failed = users.map((m) => ledger.failed(m)).filter((f) => f !== undefined);
      if (failed.length > 0) {
        const names = failed.map((f) => `${f.what} (${errorText(f.error)})`).join("; ");
        throw new Error(
          `vplatform: ${row.what} is still in use (${inUse}) and cannot go: the deletion of ${names} failed in this run. ` +
            "Once that is fixed, re-run the destroy: it deletes what is left.",
        );
      }
      const pending = users.filter((m) => ledger.inFlight(m));
      // Other deletions still running: the engine may hold ours back behind them (its parallelism).
      if (ledger.inFlight()) graceEnds = Math.max(graceEnds, clock.now() + START_GRACE_MS);
      if (pending.length === 0 && users.some((m) => ledger.ended(m) && !endedBefore.has(m))) break; // freed since: DELETE
      if (pending.length === 0 && clock.now() >= graceEnds) {
        // A last look: a machine this session did not see go (deleted by another process, or before its deletion
        // was recorded here) may have freed the row meanwhile; then the DELETE is sent again.
        const still = (await row.users()).filter((m) => users.includes(m));
        if (still.length === 0) break;
        throw new Error(
          `vplatform: ${row.what} is still in use (${inUse}) by ${(await row.name(still)).join(", ")}, which this run is not deleting. ` +
            "Delete them (or remove them from the program) and re-run the destroy.",
        );
      }
      if (clock.now() >= deadline) {
        throw new Error(
          `vplatform: ${row.what} is still in use (${inUse}) after ${limitSec} s (timeouts.delete) waiting for the deletion of ` +
            `${(await row.name(pending)).join(", ")}; re-run the destroy once they are gone, or raise timeouts.delete.`,
        );
      }
      await ledger.changeWithin((pending.length > 0 ? deadline : Math.min(deadline, graceEnds)) - clock.now(), clock);
    }
  }
}
