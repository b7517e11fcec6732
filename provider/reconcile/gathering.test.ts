import { Gathering } from "./gathering";

const settled = async (p: Promise<unknown>) => {
  let done = false;
  void p.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
};

describe("a gathering lets the operations that joined go on together", () => {
  test("an arrival waits for every operation that joined and has neither arrived nor left, then all go on", async () => {
    const g = new Gathering(60_000);
    const [a, b, c] = [g.join(), g.join(), g.join()];
    const first = a.arrive();
    const second = b.arrive();
    expect(await settled(first)).toBe(false);
    expect(await settled(second)).toBe(false);
    expect(await settled(Promise.all([first, second, c.arrive()]))).toBe(true);
  });

  test("without a quiet time, an operation alone goes on at once", async () => {
    expect(await settled(new Gathering(60_000).join().arrive())).toBe(true);
  });

  test("one that leaves (it failed, or found its row otherwise) no longer holds the others; each counts once", async () => {
    const g = new Gathering(60_000);
    const [a, b, c] = [g.join(), g.join(), g.join()];
    const waiting = a.arrive();
    b.leave();
    b.leave();
    expect(await settled(waiting)).toBe(false);
    c.leave();
    expect(await settled(waiting)).toBe(true);
    expect(await settled(a.arrive())).toBe(true); // arriving again holds nobody
  });

  test("the first arrival waits at most maxWaitMs: an operation still running does not hold the others longer", async () => {
    jest.useFakeTimers();
    try {
      const g = new Gathering(10_000);
      const [a, b, slow] = [g.join(), g.join(), g.join()];
      let gone = 0;
      void a.arrive().then(() => gone++);
      jest.advanceTimersByTime(6_000);
      void b.arrive().then(() => gone++);
      jest.advanceTimersByTime(3_999);
      await Promise.resolve();
      expect(gone).toBe(0);
      jest.advanceTimersByTime(1);
      await Promise.resolve();
      await Promise.resolve();
      expect(gone).toBe(2); // the group goes together, the later arrival with it
      // The slow one arrives later: a group of its own, at once if nothing else is pending.
      let slowGone = false;
      void slow.arrive().then(() => (slowGone = true));
      await Promise.resolve();
      await Promise.resolve();
      expect(slowGone).toBe(true);
    } finally {
      jest.useRealTimers();
    }
  });

  test("operations joining while a group waits are waited for too (a stream goes on in groups)", async () => {
    const g = new Gathering(60_000);
    const a = g.join();
    const first = a.arrive(); // alone: goes on at once
    expect(await settled(first)).toBe(true);
    const [b, c] = [g.join(), g.join()];
    const second = b.arrive();
    const d = g.join(); // joins while b waits
    void c.arrive();
    expect(await settled(second)).toBe(false);
    void d.arrive();
    expect(await settled(second)).toBe(true);
  });
});

describe("a gathering with a quiet time waits for a stream of operations to pause", () => {
  const flush = async () => {
    for (let i = 0; i < 3; i++) await Promise.resolve();
  };

  test("operations starting one after another, each done before the next starts, go on together once none has joined for quietMs", async () => {
    jest.useFakeTimers();
    try {
      const g = new Gathering(10_000, 2_500);
      const gone: number[] = [];
      for (let i = 0; i < 4; i++) {
        const t = g.join();
        jest.advanceTimersByTime(500); // its work
        void t.arrive().then(() => gone.push(i));
        await flush();
        jest.advanceTimersByTime(1_000); // the next starts 1.5 s after this one
        await flush();
      }
      // The first, alone when it arrived (no stream yet), went on at once; the others wait for the stream to pause:
      // the last joined 1.5 s ago, so 1 s more.
      expect(gone).toEqual([0]);
      jest.advanceTimersByTime(999);
      await flush();
      expect(gone).toEqual([0]);
      jest.advanceTimersByTime(1);
      await flush();
      expect(gone).toEqual([0, 1, 2, 3]);
    } finally {
      jest.useRealTimers();
    }
  });

  test("an operation alone, none joining within quietMs before it, goes on at once; one joining near others waits for the pause", async () => {
    jest.useFakeTimers();
    try {
      const g = new Gathering(10_000, 2_500);
      jest.advanceTimersByTime(60_000);
      const alone = g.join();
      jest.advanceTimersByTime(300);
      let aloneGone = false;
      void alone.arrive().then(() => (aloneGone = true));
      await flush();
      expect(aloneGone).toBe(true);

      const near = g.join(); // 0.3 s after the last join: a stream
      jest.advanceTimersByTime(300);
      let nearGone = false;
      void near.arrive().then(() => (nearGone = true));
      await flush();
      expect(nearGone).toBe(false);
      jest.advanceTimersByTime(2_200);
      await flush();
      expect(nearGone).toBe(true);
    } finally {
      jest.useRealTimers();
    }
  });

  test("a stream that never pauses still goes on in groups held at most maxWaitMs", async () => {
    jest.useFakeTimers();
    try {
      const g = new Gathering(10_000, 2_500);
      let gone = 0;
      for (let i = 0; i < 11; i++) {
        const t = g.join();
        void t.arrive().then(() => gone++);
        jest.advanceTimersByTime(1_000);
        await flush();
        if (i < 10) expect(gone).toBe(1); // the first, no stream yet, went alone
      }
      expect(gone).toBe(11); // the second arrived 10 s ago: the group went
    } finally {
      jest.useRealTimers();
    }
  });
});
