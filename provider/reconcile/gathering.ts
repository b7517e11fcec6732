/**
 * An open-ended rendezvous (see rendezvous.ts, whose members are known in advance): operations of one kind join
 * as they start and arrive when they reach a step they had better take together, a read of what their answers
 * lacked, which the batch reader then sends as one GET. The arrivals go on together once every operation that
 * joined has arrived or left, or once the first of them has waited `maxWaitMs`: a stream of operations that never
 * pauses goes on in groups, none held longer than that. An operation alone goes on at once.
 */
export class Gathering {
  /** Joined, neither arrived nor left. */
  #pending = 0;
  #arrived: (() => void)[] = [];
  #timer?: NodeJS.Timeout;

  constructor(private readonly maxWaitMs: number) {}

  /** A ticket for an operation that starts now: `arrive` at the step, or `leave` if it will not reach it. Each counts once. */
  join(): { arrive(): Promise<void>; leave(): void } {
    this.#pending++;
    let counted = false;
    const count = () => {
      if (counted) return false;
      counted = true;
      this.#pending--;
      return true;
    };
    return {
      arrive: () =>
        new Promise<void>((resolve) => {
          if (!count()) return resolve();
          this.#arrived.push(resolve);
          this.#timer ??= setTimeout(() => this.#release(), this.maxWaitMs);
          if (this.#pending === 0) this.#release();
        }),
      leave: () => {
        if (count() && this.#pending === 0) this.#release();
      },
    };
  }

  #release(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const arrived = this.#arrived;
    this.#arrived = [];
    for (const go of arrived) go();
  }
}
