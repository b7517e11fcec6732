import { AsyncLocalStorage } from "node:async_hooks";
import type { PlatformApi, Row } from "./platform";
import { LearnedDurations } from "./learnedDurations";
import { StatusPoller, continuesBusyTime, expectedLine, firstDelay, keyFilter, nextDelay, tickGap } from "./statusPoller";
import { fakeClock, timerClock } from "./testClock";
import { realClock } from "./waitFor";

/** The keys a poller's GET asks for (`$key eq 1 or $key eq 2`). */
const keysOf = (query?: { filter?: string }) =>
  String(query?.filter)
    .split(" or ")
    .map((c) => c.replace("$key eq ", ""));

/** Rows of one table whose status moves on each read; records each list's filter. */
function table(statuses: Record<string, string[]>) {
  const filters: string[] = [];
  const api = {
    async list(_table: string, query?: { filter?: string }) {
      filters.push(String(query?.filter));
      const keys = keysOf(query);
      return keys.flatMap((k) =>
        statuses[k] ? [{ $key: Number(k), status: statuses[k].length > 1 ? statuses[k].shift() : statuses[k][0] } as Row] : [],
      );
    },
  } as unknown as PlatformApi;
  return { api, filters };
}

const isRunning = (r: Row | undefined) => r?.status === "running";
const describe_ = (r: Row | undefined) => `status ${r?.status}`;

describe("the tick follows the time waited", () => {
  test("a quarter of the time waited so far, at least 250 ms, at most 1/30 of the timeout", () => {
    expect(nextDelay(0, 60)).toBe(250);
    expect(nextDelay(4000, 60)).toBe(1000);
    expect(nextDelay(40_000, 60)).toBe(2000);
    expect(nextDelay(400_000, 300)).toBe(10_000);
  });

  test("the poller's ticks come no sooner than a quarter of the time it has been busy, at least 250 ms and at most 2 s apart", () => {
    expect(tickGap(0)).toBe(250);
    expect(tickGap(4000)).toBe(1000);
    expect(tickGap(60_000)).toBe(2000);
  });

  test("keys are read bare when numeric, quoted otherwise", () => {
    expect(keyFilter(["5", "a'b"])).toBe("$key eq 5 or $key eq 'a''b'");
  });
});

describe("a poller shared by several waits", () => {
  test("every GET reads all the rows still waited on; each wait ends when its own row is ready", async () => {
    const t = table({ "1": ["starting", "running"], "2": ["starting", "starting", "starting", "running"], "3": ["running"] });
    const poller = new StatusPoller(t.api, "machine_status", "status", fakeClock());
    const waits = ["1", "2", "3"].map((key) =>
      poller.wait({ key, kind: "power-on", done: isRunning, describe: describe_ }, { timeoutSec: 60, label: `machine ${key}` }),
    );
    await Promise.all(waits);
    expect(t.filters[0]).toBe("$key eq 1 or $key eq 2 or $key eq 3");
    expect(t.filters.at(-1)).toBe("$key eq 2");
    expect(poller.reads).toBe(t.filters.length);
  });

  test("a wait past its timeout fails naming the timeouts input; the others go on", async () => {
    const t = table({ "1": ["starting"], "2": ["starting", "running"] });
    const clock = fakeClock();
    const poller = new StatusPoller(t.api, "machine_status", "status", clock);
    const stuck = poller.wait(
      { key: "1", kind: "power-on", done: isRunning, describe: describe_ },
      { timeoutSec: 5, label: "VM 'a' to reach running", timeoutInput: "powerChange" },
    );
    const fine = poller.wait(
      { key: "2", kind: "power-on", done: isRunning, describe: describe_ },
      { timeoutSec: 60, label: "VM 'b' to reach running" },
    );
    await expect(stuck).rejects.toThrow(
      "vplatform: timed out after 5s waiting for VM 'a' to reach running (last status starting); raise timeouts.powerChange if the platform is just slow",
    );
    await expect(fine).resolves.toEqual({ $key: 2, status: "running" });
    expect(clock.lines).toContain("vplatform: waiting for VM 'a' to reach running (0s/5s, status starting)");
  });

  test("each wait's progress line is shown as its own operation's (the resource it runs for), not the first waiter's", async () => {
    const t = table({ "1": ["starting", "starting", "running"], "2": ["starting", "starting", "running"] });
    const operation = new AsyncLocalStorage<string>();
    const clock = fakeClock();
    const shown: string[] = [];
    const poller = new StatusPoller(t.api, "machine_status", "status", {
      ...clock,
      progress: (line) => shown.push(`${operation.getStore()}: ${line.replace(/ \(.*/, "")}`),
    });
    const waitFor = (urn: string, key: string) =>
      operation.run(urn, () =>
        poller.wait({ key, kind: "power-on", done: isRunning, describe: describe_ }, { timeoutSec: 60, label: `machine ${key}` }),
      );
    await Promise.all([waitFor("urn-a", "1"), waitFor("urn-b", "2")]);
    expect(new Set(shown)).toEqual(
      new Set([
        "urn-a: vplatform: waiting for machine 1",
        "urn-b: vplatform: waiting for machine 2",
        // Its last line says the wait is over: the engine's row keeps a resource's latest line until the run ends.
        "urn-a: vplatform: done waiting for machine 1",
        "urn-b: vplatform: done waiting for machine 2",
      ]),
    );
  });

  test("a failed read fails the waits it served", async () => {
    const api = { list: async () => Promise.reject(new Error("GET /v4/machine_status: 500")) } as unknown as PlatformApi;
    const poller = new StatusPoller(api, "machine_status", "status", fakeClock());
    const waits = ["1", "2"].map((key) =>
      poller.wait({ key, kind: "power-on", done: isRunning, describe: describe_ }, { timeoutSec: 60, label: key }),
    );
    for (const w of waits) await expect(w).rejects.toThrow("500");
  });

  test("a wait whose done() throws (its row is gone) ends with that error", async () => {
    const t = table({});
    const poller = new StatusPoller(t.api, "machine_status", "status", fakeClock());
    const gone = poller.wait(
      {
        key: "9",
        kind: "power-on",
        done: (r) => {
          if (!r) throw new Error("machine 9 has no status row");
          return false;
        },
        describe: describe_,
      },
      { timeoutSec: 60, label: "9" },
    );
    await expect(gone).rejects.toThrow("machine 9 has no status row");
  });
});

describe("a lab powering on: waits that start one after another", () => {
  test("20 power-ons of 20 s starting 1 s apart cost about a GET per 2 s once the poller is busy, and each is seen within a quarter of its duration", async () => {
    const clock = fakeClock();
    const poller = new StatusPoller({} as PlatformApi, "machine_status", "status", clock);
    const startedAt = new Map<string, number>();
    const seenAt = new Map<string, number>();
    const waits: Promise<unknown>[] = [];
    const start = (key: string) => {
      startedAt.set(key, clock.now());
      waits.push(
        poller.wait(
          { key, kind: "power-on", done: (r) => (isRunning(r) ? (seenAt.set(key, clock.now()), true) : false), describe: describe_ },
          { timeoutSec: 300, label: key },
        ),
      );
    };
    let next = 0;
    (poller as unknown as { api: PlatformApi }).api = {
      async list(_table: string, query?: { filter?: string }) {
        while (next < 20 && next * 1000 <= clock.now()) start(String(next++)); // the engine hands over the next VM
        const keys = keysOf(query);
        return keys.map((k) => ({ $key: Number(k), status: clock.now() >= startedAt.get(k)! + 20_000 ? "running" : "starting" }) as Row);
      },
    } as unknown as PlatformApi;
    start(String(next++));
    while (waits.length < 20 || seenAt.size < 20) await Promise.all(waits);
    // 39 s of power-ons: about 20 ticks 2 s apart after the first seconds (a tick every 250 ms would be 150)
    expect(poller.reads).toBeLessThanOrEqual(30);
    for (const [key, at] of seenAt) expect(at - (startedAt.get(key)! + 20_000)).toBeLessThanOrEqual(5000);
  });
});

describe("a lab at lab speed: waits that start one after another, each over before its first read", () => {
  test("an idle moment shorter than the longest tick gap does not end the poller's busy time; a longer one does", () => {
    expect(continuesBusyTime(300)).toBe(true);
    expect(continuesBusyTime(1999)).toBe(true);
    expect(continuesBusyTime(2000)).toBe(false);
    expect(continuesBusyTime(Number.POSITIVE_INFINITY)).toBe(false); // the first wait of all
  });

  test("60 power-ons of 50 ms starting 300 ms apart cost about a GET per 2 s, not one each, and each is seen within 2.5 s", async () => {
    const clock = timerClock();
    const startedAt = new Map<string, number>();
    const seenAt = new Map<string, number>();
    const poller = new StatusPoller(
      {
        async list(_table: string, query?: { filter?: string }) {
          return keysOf(query).map(
            (k) => ({ $key: Number(k), status: clock.now() >= startedAt.get(k)! + 50 ? "running" : "starting" }) as Row,
          );
        },
      } as unknown as PlatformApi,
      "machine_status",
      "status",
      clock,
    );
    const waits: Promise<unknown>[] = [];
    const engine = async () => {
      for (let i = 0; i < 60; i++) {
        const key = String(i);
        startedAt.set(key, clock.now());
        const done = (r: Row | undefined) => (isRunning(r) ? (seenAt.set(key, clock.now()), true) : false);
        waits.push(poller.wait({ key, kind: "power-on", done, describe: describe_ }, { timeoutSec: 300, label: key }));
        await clock.sleep(300);
      }
    };
    void engine();
    await clock.run(() => seenAt.size === 60);
    await Promise.all(waits);
    // 18 s of power-ons: 17 GETs (ticks 2 s apart once busy for 8 s, quicker before); a busy time ended by each
    // idle moment would cost one GET a wait, 60
    expect(poller.reads).toBeLessThanOrEqual(20);
    for (const [key, at] of seenAt) expect(at - startedAt.get(key)!).toBeLessThanOrEqual(2500);
  });
});

/**
 * The engine's slots: `total` waits (each of `durationOf(key)`), `slots` at a time, a new one starting as
 * soon as one ends. Answers the poller's GETs and the latest an end was seen, as a share of its duration.
 */
async function batches(total: number, slots: number, durationOf: (key: string) => number, kindOf: (key: string) => string) {
  const clock = fakeClock();
  const startedAt = new Map<string, number>();
  const lateBy: number[] = [];
  const api = {
    async list(_table: string, query?: { filter?: string }) {
      const keys = keysOf(query);
      return keys.map(
        (k) => ({ $key: Number(k), status: clock.now() >= startedAt.get(k)! + durationOf(k) ? "stopped" : "stopping" }) as Row,
      );
    },
  } as unknown as PlatformApi;
  const poller = new StatusPoller(api, "machine_status", "status", clock);
  let next = 0;
  const slot = async (): Promise<void> => {
    while (next < total) {
      const key = String(next++);
      startedAt.set(key, clock.now());
      await poller.wait(
        { key, kind: kindOf(key), done: (r) => r?.status === "stopped", describe: describe_ },
        { timeoutSec: 300, label: key },
      );
      lateBy.push((clock.now() - (startedAt.get(key)! + durationOf(key))) / durationOf(key));
    }
  };
  await Promise.all(Array.from({ length: slots }, slot));
  return { reads: poller.reads, latest: Math.max(...lateBy) };
}

const thirtySeconds = () => 30_000;
/** 30 to 35 s, differing from VM to VM: the slots fall out of step. */
const thirtyOdd = (key: string) => 30_000 + ((Number(key) * 7919) % 5000);

describe("a destroy shutting VMs down a few at a time: the poller learns how long a shutdown takes", () => {
  test("40 shutdowns of 30 s, 8 at a time: once one is seen to end, each batch costs about two GETs, and each end is seen within a quarter of its duration", async () => {
    const learned = await batches(40, 8, thirtySeconds, () => "shutdown");
    // The first batch is read on the quarter-of-the-wait schedule (20 GETs); the four after it twice each.
    expect(learned.reads).toBeLessThanOrEqual(30);
    expect(learned.latest).toBeLessThanOrEqual(0.25);
  });

  test("shutdowns of 30 to 35 s, whose slots fall out of step, still cost about half the GETs of waits that learn nothing", async () => {
    const learned = await batches(40, 8, thirtyOdd, () => "shutdown");
    const unlearned = await batches(40, 8, thirtyOdd, (key) => `kind ${key}`);
    expect(learned.reads).toBeLessThanOrEqual(40);
    expect(unlearned.reads).toBeGreaterThanOrEqual(1.6 * learned.reads);
    expect(Math.max(learned.latest, unlearned.latest)).toBeLessThanOrEqual(0.25);
  });

  test("waits of kinds never seen to end are read on the quarter-of-the-wait schedule throughout", async () => {
    const unlearned = await batches(40, 8, thirtySeconds, (key) => `kind ${key}`);
    const learned = await batches(40, 8, thirtySeconds, () => "shutdown");
    expect(unlearned.reads).toBeGreaterThanOrEqual(2 * learned.reads);
    expect(unlearned.latest).toBeLessThanOrEqual(0.25);
  });

  test("a change over before its first read teaches nothing: the next wait of its kind is read at once", () => {
    expect(firstDelay(undefined)).toBe(250);
    expect(firstDelay(30_000)).toBe(24_000);
    expect(firstDelay(100)).toBe(250);
  });
});

/**
 * A reset wave in a fresh process: `vms` restores with power-on, all `duration` long, their waits started
 * together, with the durations `durations` holds. Answers the GETs and how late the end was seen (share of it).
 */
async function wave(vms: number, duration: number, durations: LearnedDurations) {
  const clock = timerClock();
  const api = {
    async list(_table: string, query?: { filter?: string }) {
      return keysOf(query).map((k) => ({ $key: Number(k), status: clock.now() >= duration ? "running" : "restoring" }) as Row);
    },
  } as unknown as PlatformApi;
  const poller = new StatusPoller(api, "machine_status", "status", clock, durations);
  let over = 0;
  const waits = Array.from({ length: vms }, (_, i) =>
    poller
      .wait({ key: String(i), kind: "restore", done: isRunning, describe: describe_ }, { timeoutSec: 900, label: String(i) })
      .then(() => over++),
  );
  await clock.run(() => over === vms);
  await Promise.all(waits);
  return { reads: poller.reads, late: (clock.now() - duration) / duration };
}

describe("a reset in a fresh process given how long the last reset's restores took", () => {
  test("told nothing, 70 s restores are read on the quarter-of-the-wait schedule from 250 ms: over 20 GETs", async () => {
    const cold = await wave(9, 70_000, new LearnedDurations());
    expect(cold.reads).toBeGreaterThan(20);
    expect(cold.late).toBeLessThanOrEqual(0.25);
  });

  test("told what the last reset saw, the wave costs at most two GETs, and the end is seen as promptly", async () => {
    const first = new LearnedDurations();
    const cold = await wave(9, 70_000, first);
    const next = new LearnedDurations();
    next.remember(first.known());
    const warm = await wave(9, 70_000, next);
    expect(warm.reads).toBeLessThanOrEqual(2);
    expect(warm.late).toBeLessThanOrEqual(cold.late);
    expect(next.known()).toEqual(first.known()); // the same platform: the same figure kept
  });

  test("restores quicker than 4/5 of the figure given are seen by the first read, at 4/5 of it", async () => {
    const given = new LearnedDurations();
    given.remember({ restore: 70_000 });
    const quicker = await wave(9, 50_000, given);
    expect(quicker.reads).toBe(1);
    expect(quicker.late * 50_000).toBe(0.8 * 70_000 - 50_000);
    expect(given.of("restore")).toBe(70_000); // a change over by its first read teaches nothing
  });

  test("slower restores than the figure given are read on from it, each seen within a quarter of its time, and their figure kept", async () => {
    const given = new LearnedDurations();
    given.remember({ restore: 70_000 });
    const slower = await wave(9, 140_000, given);
    expect(slower.reads).toBeLessThanOrEqual(8);
    expect(slower.late).toBeLessThanOrEqual(0.25);
    expect(given.of("restore")).toBeGreaterThanOrEqual(140_000); // what the next reset expects
  });
});

describe("a wait whose first read is far off says so at its start", () => {
  test("a line naming the duration seen before and when the first read comes, once that is a progress interval or more away", () => {
    expect(expectedLine(undefined, 60_000)).toBeUndefined(); // nothing known: read at once
    expect(expectedLine(70_000, 9_999)).toBeUndefined();
    expect(expectedLine(70_000, 56_000)).toBe("about 70s as seen before, first read in 56s");
    expect(expectedLine(70_000, 56_000, 60)).toBeUndefined();
    expect(expectedLine(72_000, 57_600, 10, "as a clone and a power-on took in the up")).toBe(
      "about 72s as a clone and a power-on took in the up, first read in 58s",
    );
  });

  test("the line is the waiting operation's, and the wait ends with its done line", async () => {
    const clock = timerClock();
    const lines: string[] = [];
    const durations = new LearnedDurations();
    durations.remember({ restore: 70_000 });
    const api = {
      async list(_table: string, query?: { filter?: string }) {
        return keysOf(query).map((k) => ({ $key: Number(k), status: clock.now() >= 60_000 ? "running" : "restoring" }) as Row);
      },
    } as unknown as PlatformApi;
    const poller = new StatusPoller(api, "machine_status", "status", { ...clock, progress: (l) => lines.push(l) }, durations);
    let over = false;
    const wait = poller
      .wait({ key: "1", kind: "restore", done: isRunning, describe: describe_ }, { timeoutSec: 900, label: "VM 'a' to finish restoring" })
      .then(() => (over = true));
    await clock.run(() => over);
    await wait;
    expect(lines).toEqual([
      "vplatform: waiting for VM 'a' to finish restoring (0s/900s, about 70s as seen before, first read in 56s)",
      "vplatform: waiting for VM 'a' to finish restoring (56s/900s, status restoring)",
      "vplatform: done waiting for VM 'a' to finish restoring (70s)",
    ]);
  });
});

describe("a poller leaves no timer behind", () => {
  test("a wait that ends a long sleep early cancels the sleep's timer, so the process can exit when the waits are over", async () => {
    // Row 1 has waited 40 s of virtual time after the first read, so the poller sleeps 10 s
    // (1/30 of its 300 s timeout) on a real timer; a new wait on row 2 wakes it, and that read ends both.
    let skew = 0;
    let reads = 0;
    let pendingSleeps = 0;
    const clock = {
      now: () => Date.now() + skew,
      sleep: (ms: number, cancel?: AbortSignal) => {
        pendingSleeps++;
        return realClock.sleep(ms, cancel).finally(() => pendingSleeps--); // settles when its timer fires or is cleared
      },
      log: () => undefined,
      progress: () => undefined,
    };
    const api = {
      async list(_table: string, query?: { filter?: string }) {
        const first = reads++ === 0;
        if (first) skew = 40_000;
        const keys = keysOf(query);
        return keys.map((k) => ({ $key: Number(k), status: first ? "starting" : "running" }) as Row);
      },
    } as unknown as PlatformApi;
    const poller = new StatusPoller(api, "machine_status", "status", clock);
    const first = poller.wait({ key: "1", kind: "power-on", done: isRunning, describe: describe_ }, { timeoutSec: 300, label: "1" });
    while (reads === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(pendingSleeps).toBe(1); // the 10 s sleep
    const second = poller.wait({ key: "2", kind: "power-on", done: isRunning, describe: describe_ }, { timeoutSec: 300, label: "2" });
    await Promise.all([first, second]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(reads).toBe(2);
    expect(pendingSleeps).toBe(0);
  });
});
