import { ApiError, RequestBudgetExceeded } from "../client/errors";
import { type Look, UnconfirmedActionError, sendConfirmed } from "./confirmedAction";
import { fakeClock } from "./testClock";

const answer = (status: number, text = "") => new ApiError(status, "POST", "/v4/vm_actions", text);
const noAnswer = (code: string) => new ApiError(0, "POST", "/v4/vm_actions", `${code}: no answer`, code);

/** An action whose sends fail as listed (then succeed), and whose looks read the states listed (then "idle", not taken). */
function action(failures: Error[], looks: Look<string>[] = []) {
  const sent: number[] = [];
  let lookCount = 0;
  return {
    sent,
    looks: () => lookCount,
    spec: {
      what: "restore of VM 'web'",
      send: async () => {
        sent.push(sent.length + 1);
        const failure = failures.shift();
        if (failure) throw failure;
      },
      look: async () => {
        lookCount++;
        return looks.shift() ?? { state: "status idle" };
      },
      limitSec: 30,
      timeoutInput: "restore",
    },
  };
}

describe("sendConfirmed: an action is sent again only when the state shows it did not take", () => {
  test("an answered action is sent once and not looked at", async () => {
    const a = action([]);
    await expect(sendConfirmed(a.spec, fakeClock())).resolves.toBe("sent");
    expect([a.sent.length, a.looks()]).toEqual([1, 0]);
  });

  test.each([
    ["a 503", answer(503)],
    ["a dropped answer", noAnswer("ECONNRESET")],
    ["a late answer", noAnswer("ETIMEDOUT")],
    ["a 429", answer(429)],
    ["a 409 in progress", answer(409, "operation in progress")],
  ])("after %s, a look that shows it taken ends it: not sent again", async (_name, err) => {
    const a = action([err], [{ taken: "under way", state: "status restoring" }]);
    await expect(sendConfirmed(a.spec, fakeClock())).resolves.toBe("under way");
    expect([a.sent.length, a.looks()]).toEqual([1, 1]);
  });

  test("after a 503 the state shows not taken: sent again after a backoff, saying which status decided", async () => {
    const a = action([answer(503)]);
    const clock = fakeClock();
    await expect(sendConfirmed(a.spec, clock)).resolves.toBe("sent");
    expect(a.sent).toEqual([1, 2]);
    expect(clock.sleeps.length).toBe(1);
    expect(clock.lines).toEqual([expect.stringMatching(/503.*status idle shows it not taken; sending it again/)]);
  });

  test("a 409 the state explains (already there) is taken, silently; one it does not explain is final", async () => {
    const there = action([answer(409, "already running")], [{ taken: "there", state: "status running" }]);
    const clock = fakeClock();
    await expect(sendConfirmed(there.spec, clock)).resolves.toBe("there");
    expect(clock.lines).toEqual([]);
    const unexplained = action([answer(409, "VM must be stopped to restore a snapshot")]);
    await expect(sendConfirmed(unexplained.spec, fakeClock())).rejects.toThrow(/must be stopped/);
    expect(unexplained.sent.length).toBe(1);
  });

  test.each([
    ["a refusal (400)", answer(400, "unknown action")],
    ["a definite 507", answer(507)],
    ["an unreachable endpoint (nothing sent)", noAnswer("ECONNREFUSED")],
    ["a spent request budget (nothing sent)", new RequestBudgetExceeded(1000, "POST", "/v4/vm_actions")],
  ])("%s is final: no look, no resend", async (_name, err) => {
    const a = action([err]);
    await expect(sendConfirmed(a.spec, fakeClock())).rejects.toBe(err);
    expect([a.sent.length, a.looks()]).toEqual([1, 0]);
  });

  test("failing until the time limit ends with an error naming the action, the last failure and the limit to raise", async () => {
    const a = action(Array.from({ length: 1000 }, () => answer(503)));
    const clock = fakeClock();
    const err = await sendConfirmed(a.spec, clock).catch((e) => e);
    expect(err).toBeInstanceOf(UnconfirmedActionError);
    expect(err.message).toMatch(/^vplatform: restore of VM 'web': POST \/v4\/vm_actions: 503;.*timeouts\.restore \(30 s\)/);
    expect(clock.now()).toBeLessThanOrEqual(30_000);
    expect(a.sent.length).toBeGreaterThan(3);
  });
});
