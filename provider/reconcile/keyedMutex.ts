/**
 * Serializes async work per key. All dynamic resources share one provider
 * process, so a Drive and a Nic of the same machine can be created at the same
 * time; the platform answers 409 "operation in progress" when two changes hit
 * one machine, so every change to a machine runs under its key.
 */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<void>>();
  private readonly entered = new Map<string, number>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    this.entered.set(key, (this.entered.get(key) ?? 0) + 1);
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => mine);
    this.tails.set(key, tail);
    await previous;
    try {
      return await work();
    } finally {
      const left = (this.entered.get(key) ?? 1) - 1;
      if (left > 0) this.entered.set(key, left);
      else this.entered.delete(key);
      release();
      // Forget the key once nobody queued behind us, so the map stays small.
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /** For the holder of `key`: whether more work waits behind it. */
  queuedBehind(key: string): boolean {
    return (this.entered.get(key) ?? 0) > 1;
  }

  /** Keys with work running or queued (for tests and diagnostics). */
  get busyKeys(): string[] {
    return [...this.tails.keys()];
  }
}
