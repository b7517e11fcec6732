import { ApiError, RequestBudgetExceeded, isUnreachable } from "../client/errors";
import { DEFAULT_RETRY, backoffDelay } from "../client/retry-policy";
import { isAmbiguousFailure, isRefusedForNow } from "./insertRow";
import { errorStatus, errorText } from "./platform";
import { type Clock, realClock } from "./waitFor";

/**
 * An action (a POST to an `*_actions` table) that makes no row: a power
 * action or a restore. Whether it took is read from the platform's state,
 * never trusted to an answer (see `sendConfirmed`; clones and snapshots make
 * a row and go through insertRow instead).
 */
export interface ConfirmedAction<V> {
  /** For messages: "power-on of VM 'web'". */
  what: string;
  send(): Promise<unknown>;
  /**
   * After a failure: the platform's state (the machine's status, read through
   * the shared poller) and what it says of the action, `taken` undefined when
   * it did not take. Also asked after a 409, which the state may explain
   * (already there, or the action under way).
   */
  look(): Promise<Look<V>>;
  /** Seconds the action may take in all, resends included, and the `timeouts` input that sets them. */
  limitSec: number;
  timeoutInput: string;
}

export interface Look<V> {
  taken?: V;
  /** The state read, for the log line that says what decided: "status stopping". */
  state: string;
}

/** Thrown when the action was sent until its time limit and the state never showed it taken. */
export class UnconfirmedActionError extends Error {
  constructor(
    readonly what: string,
    readonly lastFailure: unknown,
    seconds: number,
    timeoutInput: string,
  ) {
    super(
      `vplatform: ${what}: ${errorText(lastFailure)}; sent again until timeouts.${timeoutInput} (${seconds} s) ran out and the status never showed it taken. ` +
        "Nothing was left half done: run the same command again once the platform is healthy, or raise " +
        `timeouts.${timeoutInput}.`,
    );
    this.name = "UnconfirmedActionError";
  }
}

/** Nothing reached the platform (unreachable endpoint, request budget spent): the action cannot have taken. */
const nothingSent = (err: unknown): boolean =>
  err instanceof RequestBudgetExceeded || (err instanceof ApiError && err.status === 0 && isUnreachable(err.code));

/**
 * A failure after which the action may or may not have taken (no answer: dropped or late; a transient 5xx;
 * a 408), or that refused it for now (429, 409 in progress): a look decides whether to send it again.
 */
export function mayHaveTaken(err: unknown): boolean {
  return !nothingSent(err) && (isAmbiguousFailure(err) || isRefusedForNow(err));
}

/**
 * Sends the action and resolves to "sent", or to the look's verdict when a
 * failure left the outcome open and the state shows the action taken. The
 * rule (retry-policy.ts lists it with the client's): after a failure that may
 * have taken, or a 409, look; taken → done, without sending again; not taken →
 * sent again after a backoff, until `limitSec`. Any other failure, and a 409
 * the state does not explain, is final.
 */
export async function sendConfirmed<V>(action: ConfirmedAction<V>, clock: Clock = realClock): Promise<V | "sent"> {
  const deadline = clock.now() + action.limitSec * 1000;
  for (let attempt = 1; ; attempt++) {
    let failure: unknown;
    try {
      await action.send();
      return "sent";
    } catch (err) {
      if (!mayHaveTaken(err) && errorStatus(err) !== 409) throw err;
      failure = err;
    }
    const look = await action.look();
    if (look.taken !== undefined) {
      // A 409 the state explains (already there) is an answer, not a failure worth a line.
      if (mayHaveTaken(failure))
        clock.log(`vplatform: ${action.what}: the request failed (${errorText(failure)}) but the machine's ${look.state} shows it taken`);
      return look.taken;
    }
    if (!mayHaveTaken(failure)) throw failure;
    const delay = backoffDelay(DEFAULT_RETRY, attempt);
    if (clock.now() + delay > deadline) throw new UnconfirmedActionError(action.what, failure, action.limitSec, action.timeoutInput);
    clock.log(
      `vplatform: ${action.what}: the request failed (${errorText(failure)}) and the machine's ${look.state} shows it not taken; sending it again`,
    );
    await clock.sleep(delay);
  }
}
