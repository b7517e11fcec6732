import { type CreatedRow, type PlatformApi, type Row, errorStatus, errorText } from "./platform";
import { type Clock, realClock } from "./waitFor";

/** Answers that refuse for good: not implemented, version not supported, out of storage or cluster resources. */
const DEFINITE_5XX: ReadonlySet<number> = new Set([501, 505, 507]);

/** No HTTP answer (drop, timeout: no status, or 0 from the client) or a 5xx/408: the request may or may not have taken effect. */
export function isAmbiguousFailure(err: unknown): boolean {
  const status = errorStatus(err);
  return status === undefined || status === 0 || status === 408 || (status >= 500 && !DEFINITE_5XX.has(status));
}

/** No answer at all: the request may still be processed (a late commit), so the look waits longer before a resend. */
const unanswered = (err: unknown) => {
  const status = errorStatus(err);
  return status === undefined || status === 0 || status === 408;
};

/** 409 because the name is taken (not "operation in progress"). */
export function isNameConflict(err: unknown): boolean {
  return errorStatus(err) === 409 && /exist|in use|taken|duplicate/i.test(errorText(err));
}

/** Refused for now and certainly not processed: 409 "operation in progress", 429. Sending again later is safe. */
export function isRefusedForNow(err: unknown): boolean {
  const status = errorStatus(err);
  return status === 429 || (status === 409 && /in progress|busy|locked/i.test(errorText(err)));
}

export interface Insertion {
  table: string;
  body: Row;
  /** For messages: "VM 'web'", "NIC of machine 12". */
  what: string;
  /**
   * The row an earlier attempt made, found by what the create marked it with
   * (its marker tag, or a unique name), never by trusting an answer.
   */
  findOurs(): Promise<Row | undefined>;
  /** Sends the create; default POST `table` with `body` (clones and snapshots send an action). */
  send?(): Promise<CreatedRow>;
  /**
   * False when the first send needs no look before it: no earlier attempt can
   * have made a row yet (the machine was created by this process), or the
   * platform refuses a second row of the declared name (409), so such a row
   * shows itself as that conflict. Resends always look. Default true.
   */
  lookFirst?: boolean;
}

export interface Inserted extends CreatedRow {
  /** True when the row was found (made by an earlier attempt, in this run or an earlier one), not created now. */
  recovered: boolean;
}

/** Thrown when the outcome of a create stayed unknown until the resource's time limit. */
export class UnsettledCreateError extends Error {
  constructor(
    readonly what: string,
    /** The last failure of the create request. */
    readonly lastFailure: unknown,
    seconds: number,
  ) {
    super(
      `vplatform: creating ${what}: ${errorText(lastFailure)}; the platform gave no usable answer within ${seconds} s (timeouts.create) and the row was not found. ` +
        `It may still appear: the next \`pulumi up\` looks for it by its marker and takes it over instead of creating a second one; ` +
        `if the platform is down, re-run \`pulumi up\` once it is back, or raise timeouts.create.`,
    );
    this.name = "UnsettledCreateError";
  }
}

/**
 * Waits between looks for the row before sending again. After no answer the
 * request reached the platform (the client itself resends one it could not
 * write) and may still commit: looks spread over a quarter of the create
 * budget (7.5 s to 60 s), so a row landing that late is found, not made twice.
 * After an answered failure: one look after a backoff that grows per attempt.
 */
export function settleDelays(err: unknown, attempt: number, budgetMs: number): number[] {
  if (!unanswered(err)) return [Math.min(8_000, 250 * 2 ** (attempt - 1))];
  const window = Math.min(60_000, Math.max(7_500, budgetMs / 4));
  const delays = [0];
  for (let total = 0, next = 500; total < window; total += next, next = Math.min(8_000, next * 2))
    delays.push(Math.min(next, window - total));
  return delays;
}

/**
 * Creates a row idempotently. Before the first POST (unless `lookFirst` says
 * no earlier row can hide), and again before every resend, it looks
 * for a row an earlier attempt made (`findOurs`): a row of ours is taken over,
 * never made twice. An ambiguous failure (no answer, a
 * timeout, a reset after sending, a 5xx) and a refusal-for-now (409 in
 * progress, 429) are retried until `budgetMs` (the resource's create timeout)
 * runs out; a name conflict with a row that is not ours fails at once.
 */
export async function insertRow(api: PlatformApi, ins: Insertion, budgetMs: number, clock: Clock = realClock): Promise<Inserted> {
  const deadline = clock.now() + budgetMs;
  const send = ins.send ?? (() => api.create(ins.table, ins.body));
  const recovered = (row: Row, why: string): Inserted => {
    clock.log(`vplatform: ${ins.what}: ${why}; taking over the row it made (key ${String(row.$key)}) instead of creating another`);
    return { $key: String(row.$key), response: row, recovered: true };
  };
  const earlier = ins.lookFirst === false ? undefined : await ins.findOurs();
  if (earlier) return recovered(earlier, "an earlier, interrupted create made it");
  let lastError: unknown;
  for (let attempt = 1; ; attempt++) {
    try {
      return { ...(await send()), recovered: false };
    } catch (err) {
      if (isNameConflict(err)) {
        const ours = await ins.findOurs();
        if (ours) return recovered(ours, "the name is taken by a row an earlier attempt made");
        throw err;
      }
      if (!isAmbiguousFailure(err) && !isRefusedForNow(err)) throw err;
      lastError = err;
    }
    // The request may have landed (or may land late): look for it before sending again.
    for (const delay of settleDelays(lastError, attempt, budgetMs)) {
      if (clock.now() + delay > deadline) throw new UnsettledCreateError(ins.what, lastError, Math.round(budgetMs / 1000));
      await clock.sleep(delay);
      const found = await ins.findOurs().catch((lookErr: unknown) => {
        clock.log(`vplatform: ${ins.what}: looking for the row failed too (${errorText(lookErr)})`);
        return undefined;
      });
      if (found) return recovered(found, `the create request failed (${errorText(lastError)}) but the row exists`);
    }
    clock.log(`vplatform: ${ins.what}: the create request failed (${errorText(lastError)}) and no row of ours appeared; sending it again`);
  }
}
