/**
 * The request budget of the process, enforced by spacing requests instead of
 * failing them. The platform allows a number of requests per hour per API key;
 * the pacer admits a request only when fewer than `requests` went out in the
 * last `windowMs`, so no window of that length (the platform's fixed hour
 * included, whenever it starts) ever holds more. It is a token bucket whose
 * tokens come back one window after they were spent: a plain refilling bucket
 * of the same size would let twice the budget through in the first hour.
 *
 * Each session (provider configuration) has its own pacer in its client: the
 * budget is per API key; a 429 pauses every request of that session until its Retry-After.
 */
import { settingNaming } from "../config/provider-config";

export interface RequestBudget {
  requests: number;
  windowMs: number;
}

export interface PacerClock {
  now(): number;
  sleep(ms: number): Promise<void>;
  log(line: string): void;
}

const realClock: PacerClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  log: (line) => console.log(line),
};

/** A wait for the budget (or a Retry-After) that would run past the operation's deadline. */
export class BudgetWaitTooLong extends Error {
  override name = "BudgetWaitTooLong";
}

const PROGRESS_EVERY_MS = 10_000;

export class RequestPacer {
  /** Send times within the current window, oldest first (at most `requests` of them). */
  #stamps: number[] = [];
  #queue: Promise<void> = Promise.resolve();
  #pausedUntil = 0;
  #sent = 0;
  #waited = 0;
  #lastProgress = -Infinity;

  constructor(private readonly clock: PacerClock = realClock) {}

  /** Requests admitted so far. */
  get sent(): number {
    return this.#sent;
  }

  /** Milliseconds requests spent waiting for the budget or a Retry-After. */
  get waitedMs(): number {
    return this.#waited;
  }

  /**
   * Resolves when one more request may go out; requests are admitted in the
   * order they asked. Rejects with BudgetWaitTooLong when the wait would end
   * more than `withinMs` from now.
   */
  admit(budget: RequestBudget | undefined, what: string, withinMs?: number): Promise<void> {
    const deadline = withinMs === undefined ? undefined : this.clock.now() + withinMs;
    const turn = this.#queue.then(() => this.#waitForTurn(budget, what, deadline));
    this.#queue = turn.catch(() => undefined);
    return turn;
  }

  /** The platform answered 429: nothing goes out for `ms`. */
  pauseFor(ms: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, this.clock.now() + ms);
  }

  async #waitForTurn(budget: RequestBudget | undefined, what: string, deadline: number | undefined): Promise<void> {
    for (;;) {
      const now = this.clock.now();
      const ready = Math.max(this.#pausedUntil, budget ? this.#budgetFreeAt(budget, now) : now);
      if (ready <= now) {
        this.#stamps.push(now);
        this.#sent++;
        return;
      }
      if (deadline !== undefined && ready > deadline) {
        const limit = this.#pausedUntil > now ? "the platform's rate limit (429 Retry-After)" : `the request budget (${describe(budget)})`;
        throw new BudgetWaitTooLong(
          `${what}: not sent, ${limit} lets the next request go in ${seconds(ready - now)}s, ` +
            `after this operation's timeout; raise the resource's timeouts, ${settingNaming().name("requestBudget")}, or run again later`,
        );
      }
      if (now - this.#lastProgress >= PROGRESS_EVERY_MS) {
        this.#lastProgress = now;
        const why =
          this.#pausedUntil > now ? "the platform answered 429 (rate limit)" : `the request budget of ${describe(budget)} is used`;
        this.clock.log(`vplatform: ${why}; waiting ${seconds(ready - now)}s before the next request (${this.#sent} sent so far)`);
      }
      this.#waited += ready - now;
      await this.clock.sleep(ready - now);
    }
  }

  /** When the oldest request that still counts leaves the window. */
  #budgetFreeAt(budget: RequestBudget, now: number): number {
    const stamps = this.#stamps;
    const windowStart = now - budget.windowMs;
    let drop = 0;
    while (drop < stamps.length && (stamps[drop] <= windowStart || stamps.length - drop > budget.requests)) drop++;
    if (drop > 0) stamps.splice(0, drop);
    return stamps.length < budget.requests ? now : stamps[0] + budget.windowMs;
  }
}

function describe(budget: RequestBudget | undefined): string {
  return budget ? `${budget.requests} requests per ${seconds(budget.windowMs)}s` : "none";
}

const seconds = (ms: number) => Math.ceil(ms / 1000);
