import { PlatformClock } from "../client/platformClock";
import type { PlatformApi } from "./platform";
import { Session, perSession } from "./session";

const tick = () => new Promise((r) => setImmediate(r));

/** A site's session on a platform that is never asked anything. */
const site = () => {
  const never = async (): Promise<never> => {
    throw new Error("no request expected");
  };
  return new Session({ get: never, list: never, create: never, update: never, remove: never, action: never } as PlatformApi);
};

describe("a start owed to a machine stopped for hardware changes", () => {
  const session = site();
  test("is paid once, by the last change queued on the machine", async () => {
    const starts: string[] = [];
    const change = (name: string) =>
      session.withMachineLock("m1", async () => {
        session.oweStart("m1", async () => void starts.push(`start after ${name}`));
        await tick();
      });
    await Promise.all([change("a"), change("b"), change("c")]);
    expect(starts).toEqual(["start after c"]);
  });

  test("is paid even when the last change fails, whose error still reaches its caller", async () => {
    const starts: string[] = [];
    await expect(
      session.withMachineLock("m2", async () => {
        session.oweStart("m2", async () => void starts.push("start"));
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(starts).toEqual(["start"]);
  });

  test("is dropped when the machine's power is decided otherwise", async () => {
    const starts: string[] = [];
    await session.withMachineLock("m3", async () => {
      session.oweStart("m3", async () => void starts.push("start"));
      session.forgetOwedStart("m3");
    });
    expect(starts).toEqual([]);
  });

  test("a failed start fails the change that paid it", async () => {
    await expect(
      session.withMachineLock("m4", async () => {
        session.oweStart("m4", async () => {
          throw new Error("507 insufficient cluster resources");
        });
      }),
    ).rejects.toThrow("507");
  });
});

describe("two sites in one process, with the same machine keys, share nothing", () => {
  test("a change on site B's machine 54 does not wait for site A's lock on its machine 54", async () => {
    const [a, b] = [site(), site()];
    let releaseA!: () => void;
    const holdingA = a.withMachineLock("54", () => new Promise<void>((resolve) => (releaseA = resolve)));
    await tick();
    const order: string[] = [];
    await b.withMachineLock("54", async () => void order.push("B changed 54"));
    order.push("A released 54");
    releaseA();
    await holdingA;
    expect(order).toEqual(["B changed 54", "A released 54"]);
  });

  test("a start owed on site A is paid by A's last change, never run or cancelled by site B", async () => {
    const [a, b] = [site(), site()];
    const starts: string[] = [];
    let releaseA!: () => void;
    const changeOnA = a.withMachineLock("54", async () => {
      a.oweStart("54", async () => void starts.push("start A's 54"));
      await new Promise<void>((resolve) => (releaseA = resolve));
    });
    await tick();
    await b.withMachineLock("54", async () => b.forgetOwedStart("54"));
    await b.withMachineLock("54", async () => undefined);
    expect(starts).toEqual([]);
    releaseA();
    await changeOnA;
    expect(starts).toEqual(["start A's 54"]);
  });

  test("what one site's session learned (a cache) is its own", () => {
    const known = perSession(() => new Set<string>());
    const [a, b] = [site(), site()];
    known(a).add("54");
    expect(known(a).has("54")).toBe(true);
    expect(known(b).has("54")).toBe(false);
    expect(known(a)).toBe(known(a));
  });
});

describe("the platform's time, as its answers tell it", () => {
  const platform = (clock?: PlatformClock) => {
    const probes: string[] = [];
    const api = {
      clock,
      list: async (table: string, query: object) => (probes.push(`${table} ${JSON.stringify(query)}`), clock?.observe(DAY_AHEAD), []),
    } as unknown as PlatformApi;
    return { session: new Session(api), probes };
  };
  const local = 1_000_000_000_000;
  const DAY_AHEAD = new Date(local + 86_400_000).toUTCString();

  test("without a clock (a fake platform) it is the local clock, and nothing is asked", async () => {
    const { session, probes } = platform();
    expect(Math.abs((await session.askPlatformNow()) - Date.now())).toBeLessThan(1000);
    expect(probes).toEqual([]);
  });

  test("before any answer, asking sends one small read whose answer sets the time; then nothing more is asked", async () => {
    const { session, probes } = platform(new PlatformClock(() => local));
    expect(session.platformNow()).toBe(local);
    expect(await session.askPlatformNow()).toBe(local + 86_400_000);
    expect(await session.askPlatformNow()).toBe(local + 86_400_000);
    expect(probes).toEqual(['user_api_keys {"fields":"$key","limit":1}']);
  });

  test("a failed probe leaves the local clock", async () => {
    const clock = new PlatformClock(() => local);
    const session = new Session({ clock, list: async () => Promise.reject(new Error("down")) } as unknown as PlatformApi);
    expect(await session.askPlatformNow()).toBe(local);
  });
});
