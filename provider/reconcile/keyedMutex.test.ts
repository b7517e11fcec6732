import { KeyedMutex } from "./keyedMutex";

const tick = () => new Promise((r) => setImmediate(r));

describe("KeyedMutex", () => {
  test("work on the same key runs one at a time, in arrival order", async () => {
    const mutex = new KeyedMutex();
    const events: string[] = [];
    const job = (name: string) =>
      mutex.run("54", async () => {
        events.push(`${name} start`);
        await tick();
        await tick();
        events.push(`${name} end`);
      });
    await Promise.all([job("a"), job("b"), job("c")]);
    expect(events).toEqual(["a start", "a end", "b start", "b end", "c start", "c end"]);
  });

  test("work on different keys overlaps", async () => {
    const mutex = new KeyedMutex();
    const events: string[] = [];
    const job = (key: string) =>
      mutex.run(key, async () => {
        events.push(`${key} start`);
        await tick();
        events.push(`${key} end`);
      });
    await Promise.all([job("1"), job("2")]);
    expect(events.slice(0, 2)).toEqual(["1 start", "2 start"]);
  });

  test("the holder can tell whether work waits behind it", async () => {
    const mutex = new KeyedMutex();
    const seen: boolean[] = [];
    const job = () => mutex.run("k", async () => void seen.push(mutex.queuedBehind("k")));
    await Promise.all([job(), job(), job()]);
    expect(seen).toEqual([true, true, false]);
    expect(mutex.queuedBehind("k")).toBe(false);
  });

  test("a failing job releases the key and its error reaches only its caller", async () => {
    const mutex = new KeyedMutex();
    const failing = mutex.run("k", async () => {
      throw new Error("boom");
    });
    const next = mutex.run("k", async () => "ran");
    await expect(failing).rejects.toThrow("boom");
    await expect(next).resolves.toBe("ran");
    expect(mutex.busyKeys).toEqual([]);
  });
});
