import { perSession, type Session } from "./session";

/** A VM a clone can be made from: the declared source, or a clone of it not customized yet. */
export interface CloneSeed {
  vmKey: string;
  machineKey: string;
  name: string;
}

/**
 * Clones of one tree running at once. Only the source and the new machine are
 * busy while a clone runs, so the bound is not the platform's locking but its
 * request limits: a round of clones is a burst of one POST each (plus the
 * round's shared status reads), and 32 keeps that burst under the 50 requests
 * the platform's web server lets one session send at once by default (the
 * maker's Go client sees its connection dropped above it). The hourly budget
 * does not depend on the bound: a clone is one request whatever the tree's
 * shape. 32 still makes the 90 clones of a 30-copy, 3-VM class in 7 rounds
 * (1, 2, 4, 8, 16, 32, 27) instead of 90.
 */
export const MAX_CLONES_AT_ONCE = 32;

/**
 * The clones of one source with the same clone parameters, made in one
 * session (one provider configuration: the engine's concurrent creates of a
 * class all reach it). A clone that has finished and is still pristine is as
 * good a source as the one declared (the platform's clone is a full,
 * independent copy), so it seeds the clones still waiting before its own
 * settings, hardware and power are applied: r rounds make up to 2^r − 1
 * clones. Each seed serves one clone at a time (a second clone of a busy
 * machine is "operation in progress").
 */
export class CloneTree {
  /** Seeds free to clone from; the declared source is never given back to an owner. */
  readonly #idle: CloneSeed[];
  readonly #waiting: ((seed: CloneSeed) => void)[] = [];
  /** Pristine clones serving as seeds: vmKey → what lets their own create go on to customize them. */
  readonly #serving = new Map<string, () => void>();
  #running = 0;
  /** The most clones seen running at once (for tests). */
  peakRunning = 0;

  constructor(
    root: CloneSeed,
    private readonly maxAtOnce = MAX_CLONES_AT_ONCE,
  ) {
    this.#idle = [root];
  }

  /** Waits for a free seed and a place among the tree's running clones; `give` it back once the clone is over. */
  take(): Promise<CloneSeed> {
    return new Promise((resolve) => {
      this.#waiting.push(resolve);
      this.#dispatch();
    });
  }

  /** The clone made from `seed` is over (finished or failed): the seed serves the next one, or its owner goes on. */
  give(seed: CloneSeed): void {
    this.#running--;
    this.#idle.push(seed);
    this.#dispatch();
  }

  /**
   * A clone just made from this tree, pristine: it seeds waiting clones until
   * none needs it. Resolves when its own create may customize it.
   */
  offer(clone: CloneSeed): Promise<void> {
    return new Promise((resolve) => {
      this.#serving.set(clone.vmKey, resolve);
      this.#idle.push(clone);
      this.#dispatch();
    });
  }

  #dispatch(): void {
    while (this.#waiting.length > 0 && this.#running < this.maxAtOnce && this.#idle.length > 0) {
      // The newest pristine clone first: the declared source stays free for whatever else needs it.
      const seed = this.#idle.pop() as CloneSeed;
      this.#running++;
      this.peakRunning = Math.max(this.peakRunning, this.#running);
      (this.#waiting.shift() as (s: CloneSeed) => void)(seed);
    }
    // Seeds beyond what the waiting clones can use (each running clone gives its seed back and adds one) go on.
    let spare = this.#idle.filter((s) => this.#serving.has(s.vmKey)).length - Math.min(this.#waiting.length, this.maxAtOnce);
    for (let i = this.#idle.length - 1; i >= 0 && spare > 0; i--) {
      const release = this.#serving.get(this.#idle[i].vmKey);
      if (!release) continue;
      this.#serving.delete(this.#idle[i].vmKey);
      this.#idle.splice(i, 1);
      spare--;
      release();
    }
  }
}

const trees = perSession(() => new Map<string, CloneTree>());

/** The session's tree of clones of `source` made with `params` (clones with other params are another tree). */
export function cloneTreeOf(api: Session, source: CloneSeed, params: Record<string, unknown>): CloneTree {
  const { description: _d, ...shape } = params; // each clone's own description; it does not change the copy
  const id = `${source.vmKey}?${JSON.stringify(Object.entries(shape).sort())}`;
  const byId = trees(api);
  let tree = byId.get(id);
  if (!tree) {
    tree = new CloneTree(source);
    byId.set(id, tree);
  }
  return tree;
}
