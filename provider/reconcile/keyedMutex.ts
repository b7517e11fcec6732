/**
 * Serializes async work per key. All dynamic resources share one provider
 * process, so a Drive and a Nic of the same machine can be created at the same
 * time; the platform answers 409 "operation in progress" when two changes hit
 * one machine, so every change to a machine runs under its key.
 */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => mine);
    this.tails.set(key, tail);
    await previous;
    try {
      return await work();
    } finally {
      release();
      // Forget the key once nobody queued behind us, so the map stays small.
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /** Keys with work running or queued (for tests and diagnostics). */
  get busyKeys(): string[] {
    return [...this.tails.keys()];
  }
}
