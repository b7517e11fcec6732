import { currentDeadline, deadlineIn, engineDeadline, latest, withDeadline } from "./operationDeadline";

describe("the deadline carried with an operation", () => {
  test("is seen by code running inside, and only there", async () => {
    expect(currentDeadline()).toBeUndefined();
    const deadline = deadlineIn(42, "timeouts.update");
    const seen = await withDeadline(deadline, async () => {
      await new Promise((r) => setTimeout(r, 1));
      return currentDeadline();
    });
    expect(seen).toBe(deadline);
    expect(currentDeadline()).toBeUndefined();
  });

  test("concurrent operations each see their own", async () => {
    const [a, b] = [deadlineIn(10, "timeouts.create"), deadlineIn(20, "timeouts.delete")];
    const seenBy = (d: typeof a) => withDeadline(d, async () => (await new Promise((r) => setTimeout(r, 1)), currentDeadline()));
    const seen = await Promise.all([a, b].map(seenBy));
    expect(seen).toEqual([a, b]);
  });

  test("a resource's timeouts bound retries and budget waits only; the engine's customTimeouts bind every wait", () => {
    expect(deadlineIn(600, "timeouts.update").bindsWaits).toBe(false);
    expect(engineDeadline("update", 30)?.bindsWaits).toBe(true);
  });

  test("work shared by several operations runs under the latest of their deadlines", () => {
    const [early, late] = [deadlineIn(1, "a", false, 0), deadlineIn(2, "b", false, 0)];
    expect(latest([early, late])).toBe(late);
    expect(latest([late, early])).toBe(late);
    expect(latest([])).toBeUndefined();
  });
});
