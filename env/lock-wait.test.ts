import { LOCK_RETRY_SECONDS, StackLockedError, cancelCommand, waitingForLock } from "./lock-wait";

/** The CLI's own local backend, as a person runs it with nothing set. */
const LOCAL = { project: "vplatform-env", backendUrl: "file:///repo/.vplatform/state", backendUrlInEnv: false };

/** An error as the Automation API throws it when the backend refuses a locked stack. */
const locked = () => Object.assign(new Error("the stack is currently locked by 1 lock(s)"), { name: "ConcurrentUpdateError" });

/** A clock the waits advance, and an attempt that is refused `refusals` times. */
function scenario(refusals: number, waitSeconds: number) {
  let clock = 0;
  let calls = 0;
  const waits: string[] = [];
  const run = () =>
    waitingForLock(
      async () => {
        calls++;
        if (calls <= refusals) throw locked();
        return "done";
      },
      {
        stack: "dev",
        home: LOCAL,
        waitSeconds,
        onWait: (m) => waits.push(m),
        sleep: async (s) => void (clock += s * 1000),
        now: () => clock,
      },
    );
  return { run, calls: () => calls, waits };
}

describe("a command on a stack another update holds", () => {
  test("fails at once without --wait-for-lock, saying it is locked and what to do", async () => {
    const s = scenario(1, 0);
    const err = await s.run().catch((e: Error) => e);
    expect(err).toBeInstanceOf(StackLockedError);
    expect((err as Error).message).toMatch(
      /stack 'dev' is locked by another update .*--wait-for-lock <seconds>.*`PULUMI_BACKEND_URL=file:\/\/\/repo\/\.vplatform\/state pulumi cancel --yes --stack organization\/vplatform-env\/dev` removes its lock/,
    );
    expect(s.calls()).toBe(1);
  });

  test("with --wait-for-lock, runs once the lock is free", async () => {
    const s = scenario(3, 60);
    await expect(s.run()).resolves.toBe("done");
    expect(s.calls()).toBe(4);
    expect(s.waits[0]).toMatch(/stack 'dev' is locked by another update; waiting \(0 of 60 s\)/);
  });

  test("gives up when the wait is over, saying how long it waited", async () => {
    const s = scenario(100, 10);
    await expect(s.run()).rejects.toThrow(/still after waiting \d+ s/);
    expect(s.calls()).toBeLessThanOrEqual(10 / LOCK_RETRY_SECONDS + 1);
  });

  test("other failures are not retried", async () => {
    let calls = 0;
    const failing = waitingForLock(
      async () => {
        calls++;
        throw new Error("platform said 500");
      },
      { stack: "dev", home: LOCAL, waitSeconds: 60, onWait: () => undefined, sleep: async () => undefined },
    );
    await expect(failing).rejects.toThrow("platform said 500");
    expect(calls).toBe(1);
  });
});

describe("the pulumi cancel the refusal names: pasted outside the stack's project, it works", () => {
  test.each([
    [
      "the CLI's local backend: its URL and the DIY full name",
      "dev",
      LOCAL,
      "PULUMI_BACKEND_URL=file:///repo/.vplatform/state pulumi cancel --yes --stack organization/vplatform-env/dev",
    ],
    [
      "a DIY backend from the caller's PULUMI_BACKEND_URL: the full name alone",
      "dev",
      { project: "shop", backendUrl: "postgres://db/state", backendUrlInEnv: true },
      "pulumi cancel --yes --stack organization/shop/dev",
    ],
    [
      "Pulumi Cloud: the organization is the user's",
      "dev",
      { project: "shop", backendUrlInEnv: false },
      "pulumi cancel --yes --stack <your-org>/shop/dev",
    ],
    [
      "a stack given by its full name: as given",
      "acme/shop/dev",
      { project: "shop", backendUrlInEnv: false },
      "pulumi cancel --yes --stack acme/shop/dev",
    ],
  ])("%s", (_what, stack, home, command) => {
    expect(cancelCommand(stack, home)).toBe(command);
  });
});
