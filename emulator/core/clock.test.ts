import { ManualClock } from "./clock";

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
