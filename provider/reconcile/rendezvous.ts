/**
 * A meeting point for the members of one group of operations: each member
 * arrives once it has done what comes before (or leaves, if it never will),
 * and every arrival goes on when the last member has arrived or left. A reset
 * wave's VMs start their waits together this way, so the first status read
 * sees all of them instead of the few whose restore was answered first.
 */
export class Rendezvous {
  #pending: number;
  #release!: () => void;
  readonly #all = new Promise<void>((resolve) => {
    this.#release = resolve;
  });

  constructor(members: number) {
    this.#pending = members;
    if (members <= 0) this.#release();
  }

  /** A member's ticket: `arrive` waits for the others, `leave` lets them go on without it. Each counts once. */
  member(): { arrive(): Promise<void>; leave(): void } {
    let counted = false;
    const count = () => {
      if (counted) return;
      counted = true;
      if (--this.#pending === 0) this.#release();
    };
    return {
      arrive: () => {
        count();
        return this.#all;
      },
      leave: count,
    };
  }
}
