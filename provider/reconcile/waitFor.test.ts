import { fakeClock } from "./testClock";
import { WaitTimeoutError, backoffDelays, pollUntil } from "./waitFor";

describe("backoffDelays", () => {
  test("starts at 200 ms, grows, and is capped", () => {
    const gen = backoffDelays(200, 1000, 2);
    const first = Array.from({ length: 5 }, () => gen.next().value);
    expect(first).toEqual([200, 400, 800, 1000, 1000]);
  });
});

describe("pollUntil", () => {
  test("returns the first value that satisfies the predicate", async () => {
    const values = ["starting", "starting", "running"];
    const clock = fakeClock();
    const got = await pollUntil(
      async () => values.shift()!,
      (v) => v === "running",
      (v) => `status ${v}`,
      {
        timeoutSec: 60,
        label: "VM 'web' to reach running",
        clock,
      },
    );
    expect(got).toBe("running");
    expect(clock.sleeps).toHaveLength(2);
  });

  test("prints progress naming the target, elapsed/limit and the current state", async () => {
    const values = ["starting", "running"];
    const clock = fakeClock();
    await pollUntil(
      async () => values.shift()!,
      (v) => v === "running",
      (v) => `status ${v}`,
      {
        timeoutSec: 60,
        label: "VM 'web' to reach running",
        clock,
      },
    );
    expect(clock.lines).toEqual([
      "vplatform: waiting for VM 'web' to reach running (0s/60s, status starting)",
      // The wait's end, so a display that keeps a row's latest line does not show it waiting still.
      "vplatform: done waiting for VM 'web' to reach running (0s)",
    ]);
  });

  test("a wait done at the first look shows nothing", async () => {
    const clock = fakeClock();
    await pollUntil(
      async () => "running",
      (v) => v === "running",
      (v) => `status ${v}`,
      { timeoutSec: 60, label: "VM 'web' to reach running", clock },
    );
    expect(clock.lines).toEqual([]);
  });

  test("repeats an unchanged state only every progressEverySec", async () => {
    const clock = fakeClock();
    let calls = 0;
    await pollUntil(
      async () => ++calls,
      (n) => n > 40,
      () => "status starting",
      {
        timeoutSec: 600,
        label: "x",
        progressEverySec: 10,
        maxDelayMs: 1000,
        clock,
      },
    ).catch(() => undefined);
    // about 40 polls over ~35 s of virtual time: a handful of lines, not 40
    expect(clock.lines.length).toBeGreaterThan(1);
    expect(clock.lines.length).toBeLessThan(10);
  });

  test("gives up at the timeout with the last state and the input to raise", async () => {
    const clock = fakeClock();
    const err = await pollUntil(
      async () => "stopping",
      () => false,
      (v) => `status ${v}`,
      {
        timeoutSec: 5,
        label: "VM 'web' to shut down",
        timeoutInput: "gracefulShutdown",
        clock,
      },
    ).catch((e) => e);
    expect(err).toBeInstanceOf(WaitTimeoutError);
    expect(err.message).toContain("timed out after 5s waiting for VM 'web' to shut down (last status stopping)");
    expect(err.message).toContain("timeouts.gracefulShutdown");
    expect(clock.now()).toBeGreaterThanOrEqual(5000);
    expect(clock.now()).toBeLessThan(5000 + 3000);
  });
});
