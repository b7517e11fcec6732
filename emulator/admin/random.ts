/**
 * The emulator's one source of injected randomness (fault and chaos probabilities): a seeded generator
 * (mulberry32), so a test that sets the seed sees the same requests hit on every run.
 */
export class SeededRandom {
  private state = 0;
  private current = 0;

  constructor(seed: number = Date.now()) {
    this.reseed(seed);
  }

  get seed(): number {
    return this.current;
  }

  reseed(seed: number): void {
    this.current = seed >>> 0;
    this.state = this.current;
  }

  /** The next number in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
}
