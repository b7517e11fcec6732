import { ManualClock } from "./clock";
import { InMemoryContext } from "./context";

describe("the manual clock holds delayed transitions until a test advances it", () => {
  test("nothing runs until advanced; an advance runs what is due by then, in time order", () => {
    const clock = new ManualClock();
    const ran: string[] = [];
    clock.schedule(3000, () => ran.push("stopped"));
    clock.schedule(2000, () => ran.push("running"));
    expect(ran).toEqual([]);
    expect(clock.dueIn()).toEqual([2000, 3000]);
    expect(clock.advance(2500)).toBe(1);
    expect(ran).toEqual(["running"]);
    expect(clock.dueIn()).toEqual([500]);
    expect(clock.elapsedMs).toBe(2500);
  });

  test("transitions scheduled by a transition run in the same advance when due within it", () => {
    const clock = new ManualClock();
    const ran: string[] = [];
    clock.schedule(3000, () => {
      ran.push("stopping done");
      clock.schedule(2000, () => ran.push("started"));
    });
    clock.advance(4000);
    expect(ran).toEqual(["stopping done"]);
    clock.advance(1000);
    expect(ran).toEqual(["stopping done", "started"]);
  });

  test("without a duration it advances to the latest transition pending now; cancelled ones never run", () => {
    const clock = new ManualClock();
    const ran: number[] = [];
    clock.schedule(5000, () => ran.push(5));
    const cancel = clock.schedule(1000, () => ran.push(1));
    cancel();
    expect(clock.advance()).toBe(1);
    expect(ran).toEqual([5]);
    expect(clock.pending()).toBe(0);
  });
});

describe("the platform's now follows the clock", () => {
  test("the manual clock's now is its start plus the time advanced, and nothing else moves it", () => {
    const clock = new ManualClock(1_000_000);
    expect(clock.now()).toBe(1_000_000);
    clock.schedule(5000, () => {});
    clock.advance(1500);
    expect(clock.now()).toBe(1_001_500);
    clock.advance();
    expect(clock.now()).toBe(1_005_000);
  });

  test("a context on the manual clock judges time by it: nowSeconds moves only when advanced", () => {
    const clock = new ManualClock(7_000_000);
    const ctx = new InMemoryContext(1, clock);
    expect(ctx.nowSeconds()).toBe(7000);
    clock.advance(61_000);
    expect([ctx.now(), ctx.nowSeconds()]).toEqual([7_061_000, 7061]);
  });
});
