/**
 * An open-ended rendezvous (see rendezvous.ts, whose members are known in advance): operations of one kind join
 * as they start and arrive when they reach a step they had better take together, a read of what their answers
 * lacked, which the batch reader then sends as one GET. The arrivals go on together once every operation that
 * joined has arrived or left and, in a stream (operations joining less than `quietMs` apart), none has joined for
 * `quietMs` (the stream paused), or once the first of them has waited `maxWaitMs`: a stream that never pauses goes
 * on in groups, none held longer than that. An operation alone, none joining near it, goes on at once.
 */
export class Gathering {
  /** Joined, neither arrived nor left. */
  #pending = 0;
  #lastJoin = Number.NEGATIVE_INFINITY;
  /** Whether operations joined less than `quietMs` apart since the last group went on. */
  #streaming = false;
  #arrived: (() => void)[] = [];
  #longest?: NodeJS.Timeout;
  #quiet?: NodeJS.Timeout;

  constructor(
    private readonly maxWaitMs: number,
    private readonly quietMs = 0,
  ) {}

  /** Runs `op` as one operation of the gathering: it joins now, arrives where it calls `arrive`, and leaves when done. */
  async around<T>(op: (arrive: () => Promise<void>) => Promise<T>): Promise<T> {
    const ticket = this.join();
    try {
      return await op(ticket.arrive);
    } finally {
      ticket.leave();
    }
  }

  /** A ticket for an operation that starts now: `arrive` at the step, or `leave` if it will not reach it. Each counts once. */
  join(): { arrive(): Promise<void>; leave(): void } {
    this.#pending++;
    const now = Date.now();
    this.#streaming ||= now - this.#lastJoin < this.quietMs;
    this.#lastJoin = now;
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
          this.#longest ??= setTimeout(() => this.#release(), this.maxWaitMs);
          this.#goIfSettled();
        }),
      leave: () => {
        if (count()) this.#goIfSettled();
      },
    };
  }

  /** Releases the arrivals when nobody they wait for is pending and the stream has paused; else checks again then. */
  #goIfSettled(): void {
    if (this.#pending > 0 || this.#arrived.length === 0) return;
    const quietFor = Date.now() - this.#lastJoin;
    if (!this.#streaming || quietFor >= this.quietMs) {
      this.#release();
      return;
    }
    clearTimeout(this.#quiet);
    this.#quiet = setTimeout(() => this.#goIfSettled(), this.quietMs - quietFor);
  }

  #release(): void {
    clearTimeout(this.#longest);
    clearTimeout(this.#quiet);
    this.#longest = undefined;
    this.#quiet = undefined;
    this.#streaming = false;
    const arrived = this.#arrived;
    this.#arrived = [];
    for (const go of arrived) go();
  }
}

/**
 * A gathering for the reads of what create answers lack (a snapshot's key, a user's identity, an API key's creation
 * time): a class's creates of one kind, sent in a stream as the engine reaches each copy, finish over tens of
 * seconds. Each read waits for the other creates still running, at most 10 s, and for the stream to pause: none
 * started for 2.5 s, longer than the status poller's longest gap between the reads that end the waits before them
 * (2 s), so creates released by successive ticks still read together; a create alone, none started within 2.5 s
 * of it, reads at once. The batch reader sends their reads as one GET.
 */
export const answerReads = (): Gathering => new Gathering(10_000, 2_500);
