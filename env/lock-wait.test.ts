import { LOCK_PROGRESS_SECONDS, LOCK_RETRY_SECONDS, StackLockedError, cancelCommand, lockHolders, waitingForLock } from "./lock-wait";

/** The CLI's own local backend, as a person runs it with nothing set. */
const LOCAL = { project: "vplatform-env", backendUrl: "file:///repo/.vplatform/state", backendUrlInEnv: false };

/** The engine's refusal on a DIY backend, quoting the lock file (pulumi pkg/backend/diy/lock.go, checkForLock). */
const DIY_REFUSAL =
  "code: 255\n stdout: \n stderr: error: the stack is currently locked by 1 lock(s). Either wait for the other process(es) to end " +
  "or delete the lock file with `pulumi cancel`.\n  postgres://****:****@db:5432/state/.pulumi/locks/organization/vplatform-env/dev/" +
  "0b8f7d2e-1c1e-4a51-9d7e-4b8f0c6f6a1e.json: created by runner@ci-7 (pid 4242) at 2026-11-29T06:00:00Z\n";

/** An error as the Automation API throws it when the backend refuses a locked stack. */
const locked = () => Object.assign(new Error(DIY_REFUSAL), { name: "ConcurrentUpdateError" });

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
      /stack 'dev' is locked by another update .*--wait-for-lock <seconds>.*`PULUMI_BACKEND_URL='file:\/\/\/repo\/\.vplatform\/state' pulumi cancel --yes --stack organization\/vplatform-env\/dev` removes its lock/,
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

describe("a wait for the lock is never silent", () => {
  test("it starts by saying who holds the lock, as the lock file says", async () => {
    const s = scenario(1, 60);
    await s.run();
    expect(s.waits[0]).toBe(
      "stack 'dev' is locked by another update; waiting (0 of 60 s); held by runner@ci-7, pid 4242, since 2026-11-29T06:00:00Z",
    );
  });

  test(`it says it is still waiting every ${LOCK_PROGRESS_SECONDS} s, not at every retry`, async () => {
    const s = scenario(46, 600); // 46 refusals, 2 s apart: 92 s
    await s.run();
    const progress = s.waits.filter((w) => w.includes("still locked"));
    expect(progress.map((w) => /waiting \((\d+) of 600 s\)/.exec(w)?.[1])).toEqual(["30", "60", "90"]);
    expect(progress[0]).toContain("held by runner@ci-7, pid 4242");
  });

  test("it ends by saying how long it waited for the lock", async () => {
    const s = scenario(3, 60);
    await s.run();
    expect(s.waits.at(-1)).toBe("stack 'dev': got the lock after waiting 6 s");
  });

  test("a wait that runs out says so, and the refusal names who holds the lock", async () => {
    const s = scenario(100, 10);
    const err = (await s.run().catch((e: Error) => e)) as Error;
    expect(s.waits.at(-1)).toMatch(/^stack 'dev': gave up waiting for the lock after \d+ s$/);
    expect(err.message).toContain("held by runner@ci-7, pid 4242, since 2026-11-29T06:00:00Z");
  });

  test("without --wait-for-lock nothing is waited and nothing is said but the refusal", async () => {
    const s = scenario(1, 0);
    await s.run().catch(() => undefined);
    expect(s.waits).toEqual([]);
  });
});

describe("who holds a lock, from the engine's refusal", () => {
  test("each lock file quoted, once", () => {
    const two = `${DIY_REFUSAL}  file:///x/.pulumi/locks/organization/p/dev/2.json: created by ana@laptop (pid 7) at 2026-11-29T06:01:00Z\n`;
    expect(lockHolders(new Error(two))).toBe(
      "held by runner@ci-7, pid 4242, since 2026-11-29T06:00:00Z; ana@laptop, pid 7, since 2026-11-29T06:01:00Z",
    );
  });
  test("a holder on this host whose pid runs no process is said to be stale, naming the host; a live one or another host's is not", () => {
    const lock = (who: string, pid: number) =>
      new Error(`${DIY_REFUSAL}  file:///x/.pulumi/locks/o/p/dev/2.json: created by ${who} (pid ${pid}) at 2026-11-29T06:01:00Z\n`);
    const host = { name: "ci-7", running: (pid: number) => pid === 4242 };
    expect(lockHolders(lock("runner@ci-7", 99), host)).toContain(
      "pid 99, since 2026-11-29T06:01:00Z (stale: no process 99 runs on this host ci-7, unless another machine is named so)",
    );
    expect(lockHolders(new Error(DIY_REFUSAL), host)).not.toContain("stale");
    expect(lockHolders(lock("ana@laptop", 99), host)).not.toContain("stale");
  });
  test("Pulumi Cloud's refusal names no one: said so", () => {
    expect(lockHolders(new Error("[409] Conflict: Another update is currently in progress."))).toBe("the backend does not say by whom");
  });
});

describe("the pulumi cancel the refusal names: pasted outside the stack's project, it works", () => {
  test.each([
    [
      "the CLI's local backend: its URL and the DIY full name",
      "dev",
      LOCAL,
      "PULUMI_BACKEND_URL='file:///repo/.vplatform/state' pulumi cancel --yes --stack organization/vplatform-env/dev",
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
