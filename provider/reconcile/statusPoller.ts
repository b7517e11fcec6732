import { AsyncResource } from "node:async_hooks";
import { deadlineIn, withDeadline } from "../client/operationDeadline";
import { filterLiteral } from "../client/query-string";
import { LearnedDurations, learnedDurations } from "./learnedDurations";
import { type PlatformApi, type Row, str } from "./platform";
import { perSession, type Session } from "./session";
import { type Clock, type PollOptions, type WaitTimeoutError, doneLine, progressLine, realClock, waitLimit } from "./waitFor";

/**
 * Coalesced waits: every resource of the process that waits on rows of one
 * table (machine statuses, drive statuses, ...) shares one poller, which reads
 * all the rows waited on in ONE filtered GET per tick, asking only for the
 * fields the waits need. Each wait keeps its own schedule, timeout and
 * progress lines; a tick serves every wait, due or not.
 *
 * The tick follows the operation's scale: a wait is next due after a quarter
 * of the time it has waited so far (so a 20 s power-on is read about 8 times,
 * a 2 s one as often), at least 250 ms and at most 1/30 of its timeout. The
 * poller as a whole keeps the same pace: ticks come no sooner than a quarter
 * of the time it has been busy (at most 2 s apart), so a stream of waits
 * starting one after another (a lab powering on) does not tick every 250 ms.
 * A stream of waits each over by its first read (a lab at lab speed) leaves
 * the poller idle for moments between them: an idle moment shorter than the
 * longest gap does not end the busy time, or each wait would cost a GET.
 *
 * The poller learns how long each kind of change takes on this platform: once
 * one has been seen to finish, a new wait of that kind is first read after
 * 4/5 of the quickest such change (a destroy shutting VMs down a few at a
 * time reads each batch about twice, not every 2 s while any is pending).
 * A change over before its first read teaches nothing. What is learned is the
 * session's (learnedDurations): a command in a fresh process may be given what
 * an earlier one saw (a lab's reset, the duration of its restores). A tick also counts as
 * a read for every wait it served, due or not, so a wait read just before
 * its time is not read again at once.
 */
export interface RowWait {
  key: string;
  /** The kind of change waited for ("power-on", "shutdown", "hot-plug"): the poller learns how long one takes. */
  kind: string;
  /** Whether the wait is over; `row` is undefined when the row does not exist. Throws to end the wait with that error. */
  done(row: Row | undefined): boolean;
  /** The short state shown in progress lines and errors. */
  describe(row: Row | undefined): string;
}

const MIN_DELAY_MS = 250;
/** The longest gap the poller's own pace may put between ticks (a wait's completion is seen at most this late). */
const MAX_TICK_GAP_MS = 2000;
/** Keys per GET: keeps the query string short. */
const KEYS_PER_READ = 100;
/** A wait of a learned kind is first read after this share of the quickest change of that kind seen. */
const LEARNED_SHARE = 0.8;

interface Waiter extends RowWait {
  opts: PollOptions;
  started: number;
  deadline: number;
  timedOut(state: string, elapsedSec: number): WaitTimeoutError;
  dueAt: number;
  /** Whether a tick has read the row and found the change not over yet. */
  readBefore: boolean;
  lastShown: string;
  lastShownAt: number;
  /** Shows a progress line as the waiting operation's own (the poller's loop runs in the first waiter's context). */
  show(line: string): void;
  resolve(row: Row | undefined): void;
  reject(err: unknown): void;
}

export class StatusPoller {
  readonly #waiters = new Set<Waiter>();
  #running = false;
  #wake?: () => void;
  #sleepingUntil = Infinity;
  /** Since when some wait has been pending without a break, and when the last tick read. */
  #busySince = 0;
  #lastTick = -Infinity;
  /** When the last wait ended (the poller went idle). */
  #idleSince = -Infinity;
  /** GETs this poller sent (for tests and the bench). */
  reads = 0;

  constructor(
    private readonly api: PlatformApi,
    readonly table: string,
    readonly fields: string,
    private readonly clock: Clock,
    /** How long each kind of change takes (ms from the wait's start to the read that saw it done). */
    private readonly durations = new LearnedDurations(),
  ) {}

  wait(w: RowWait, opts: PollOptions): Promise<Row | undefined> {
    return new Promise((resolve, reject) => {
      const now = this.clock.now();
      const limit = waitLimit(opts, now); // in the waiting operation's context: its customTimeouts count
      const waiter: Waiter = {
        ...w,
        opts,
        started: now,
        deadline: limit.deadline,
        timedOut: limit.timedOut,
        dueAt: Math.min(limit.deadline, now + firstDelay(this.durations.of(w.kind))),
        readBefore: false,
        lastShown: "",
        lastShownAt: now,
        show: AsyncResource.bind((line: string) => this.clock.progress(line)),
        resolve,
        reject,
      };
      const expected = expectedLine(this.durations.of(w.kind), waiter.dueAt - now, opts.progressEverySec, this.durations.basisOf(w.kind));
      if (expected) {
        // No read for a while: say why, on the waiting operation's row.
        waiter.show(progressLine(opts.label, 0, (limit.deadline - now) / 1000, expected));
        waiter.lastShown = expected;
      }
      this.#waiters.add(waiter);
      if (waiter.dueAt < this.#sleepingUntil) this.#wake?.();
      if (!this.#running) void this.#run();
    });
  }

  async #run(): Promise<void> {
    this.#running = true;
    if (!continuesBusyTime(this.clock.now() - this.#idleSince)) this.#busySince = this.clock.now();
    try {
      while (this.#waiters.size > 0) {
        const pace = this.#lastTick + tickGap(this.clock.now() - this.#busySince);
        const due = Math.max(pace, Math.min(...[...this.#waiters].map((w) => w.dueAt)));
        if (due > this.clock.now()) await this.#sleepUntil(due);
        const now = this.clock.now();
        if (now < pace || [...this.#waiters].every((w) => w.dueAt > now)) continue; // woken by a new wait that is not due yet
        this.#lastTick = now;
        await this.#tick();
      }
    } finally {
      this.#running = false;
      this.#idleSince = this.clock.now();
    }
  }

  /**
   * Sleeps until `at`, or until a new wait is due sooner. A wake cancels the
   * sleep's timer: left pending (up to 1/30 of a timeout), it would outlive the
   * waits and keep the process from exiting.
   */
  async #sleepUntil(at: number): Promise<void> {
    this.#sleepingUntil = at;
    const woken = new AbortController();
    await Promise.race([this.clock.sleep(at - this.clock.now(), woken.signal), new Promise<void>((resolve) => (this.#wake = resolve))]);
    woken.abort();
    this.#sleepingUntil = Infinity;
    this.#wake = undefined;
  }

  async #tick(): Promise<void> {
    const batch = [...this.#waiters];
    let rows: Map<string, Row>;
    try {
      rows = await this.#read([...new Set(batch.map((w) => w.key))], batch);
    } catch (err) {
      for (const w of batch) this.#settle(w, () => w.reject(err));
      return;
    }
    const now = this.clock.now();
    for (const w of batch) {
      const row = rows.get(w.key);
      let finished: boolean;
      try {
        finished = w.done(row);
      } catch (err) {
        this.#settle(w, () => w.reject(err)); // e.g. the row is gone and cannot come back
        continue;
      }
      if (finished) {
        if (w.readBefore) this.durations.seen(w.kind, now - w.started);
        else this.durations.overBy(w.kind, now - w.started);
        if (w.lastShown) w.show(doneLine(w.opts.label, Math.round((now - w.started) / 1000)));
        this.#settle(w, () => w.resolve(row));
        continue;
      }
      w.readBefore = true;
      const state = w.describe(row);
      const elapsed = Math.round((now - w.started) / 1000);
      if (now >= w.deadline) {
        this.#settle(w, () => w.reject(w.timedOut(state, elapsed)));
        continue;
      }
      if (state !== w.lastShown || now - w.lastShownAt >= (w.opts.progressEverySec ?? 10) * 1000) {
        w.show(progressLine(w.opts.label, elapsed, (w.deadline - w.started) / 1000, state));
        w.lastShown = state;
        w.lastShownAt = now;
      }
      w.dueAt = Math.min(w.deadline, Math.max(w.dueAt, now + nextDelay(now - w.started, w.opts.timeoutSec)));
    }
  }

  #settle(w: Waiter, settle: () => void): void {
    this.#waiters.delete(w);
    settle();
  }

  /** One GET per KEYS_PER_READ keys; under the latest deadline of the waits it serves (budget waits may last that long). */
  async #read(keys: string[], batch: Waiter[]): Promise<Map<string, Row>> {
    const latest = Math.max(...batch.map((w) => w.deadline));
    const deadline = deadlineIn(Math.max(0, latest - this.clock.now()) / 1000, `timeouts.${batch[0].opts.timeoutInput ?? "create"}`);
    const rows = new Map<string, Row>();
    for (let i = 0; i < keys.length; i += KEYS_PER_READ) {
      const chunk = keys.slice(i, i + KEYS_PER_READ);
      this.reads++;
      const found = await withDeadline(deadline, () =>
        this.api.list(this.table, { filter: keyFilter(chunk), fields: `$key,${this.fields}`, limit: chunk.length }),
      );
      for (const row of found) rows.set(str(row.$key), row);
    }
    return rows;
  }
}

/** `$key eq 1 or $key eq 2`: numeric keys bare, others quoted. */
export function keyFilter(keys: string[]): string {
  return keys.map((k) => `$key eq ${filterLiteral(k)}`).join(" or ");
}

/** The poller's least gap between ticks: a quarter of the time it has been busy, between 250 ms and 2 s. */
export function tickGap(busyMs: number): number {
  return Math.min(MAX_TICK_GAP_MS, Math.max(MIN_DELAY_MS, busyMs / 4));
}

/** Whether a wait arriving after the poller has been idle this long continues its busy time (a stream of waits). */
export function continuesBusyTime(idleMs: number): boolean {
  return idleMs < MAX_TICK_GAP_MS;
}

/** When a new wait is first read: at once (250 ms) until its kind of change has been seen to finish, then 4/5 of the quickest. */
export function firstDelay(quickestMs: number | undefined): number {
  return Math.max(MIN_DELAY_MS, (quickestMs ?? 0) * LEARNED_SHARE);
}

/** What a wait says at its start when its first read is a progress interval or more away (its kind's duration known or expected). */
export function expectedLine(
  learnedMs: number | undefined,
  firstReadInMs: number,
  progressEverySec = 10,
  basis = "as seen before",
): string | undefined {
  if (learnedMs === undefined || firstReadInMs < progressEverySec * 1000) return undefined;
  return `about ${Math.round(learnedMs / 1000)}s ${basis}, first read in ${Math.round(firstReadInMs / 1000)}s`;
}

/** A quarter of the time waited so far, between 250 ms and 1/30 of the timeout. */
export function nextDelay(waitedMs: number, timeoutSec: number): number {
  const cap = Math.max(MIN_DELAY_MS, (timeoutSec * 1000) / 30);
  return Math.min(cap, Math.max(MIN_DELAY_MS, waitedMs / 4));
}

const pollers = perSession(() => new WeakMap<Clock, Map<string, StatusPoller>>());

/** The session's poller of `table` for `fields` (one per clock). */
export function pollerFor(api: Session, table: string, fields: string, clock: Clock = realClock): StatusPoller {
  const byClock = pollers(api);
  let byTable = byClock.get(clock);
  if (!byTable) {
    byTable = new Map();
    byClock.set(clock, byTable);
  }
  const id = `${table}?${fields}`;
  let poller = byTable.get(id);
  if (!poller) {
    poller = new StatusPoller(api, table, fields, clock, learnedDurations(api, table));
    byTable.set(id, poller);
  }
  return poller;
}

/**
 * Waits until `done(row)` holds for the row `key` of `table`: coalesced with
 * every other wait on the table.
 */
export function waitForRow(api: Session, table: string, fields: string, wait: RowWait, opts: PollOptions): Promise<Row | undefined> {
  return pollerFor(api, table, fields, opts.clock).wait(wait, opts);
}
