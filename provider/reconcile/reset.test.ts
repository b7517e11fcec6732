import type { PlatformApi } from "./platform";
import { describeStep, planReset, planWaves, poweredOn, type ResetOutcome, type ResetTarget, resetVms } from "./reset";
import { Session } from "./session";
import { timerClock } from "./testClock";
import { VM_TABLE } from "../schemas/tables";

const target = (powerState?: "running" | "stopped"): ResetTarget => ({
  vm: { vmKey: "1", machineKey: "2", name: "course-01-web" },
  snapshot: "9",
  ...(powerState ? { powerState } : {}),
});
const on = { running: true, status: "running" };
const off = { running: false, status: "stopped" };

describe("planReset: a restore needs the VM stopped, then the declared power state comes back", () => {
  test.each([
    ["running", on, { stop: true, powerOn: true }],
    ["running", off, { stop: false, powerOn: true }],
    ["stopped", on, { stop: true, powerOn: false }],
    ["stopped", off, { stop: false, powerOn: false }],
    [undefined, on, { stop: true, powerOn: true }],
    [undefined, off, { stop: false, powerOn: false }],
  ] as const)("declared %s, status %o: %o", (declared, now, expected) => {
    expect(planReset(target(declared), now)).toEqual({ ...target(declared), ...expected });
  });

  test.each(["starting", "stopping", "restarting", "migrating"])("a VM %s counts as powered on (it must be stopped first)", (status) => {
    expect(poweredOn({ running: false, status })).toBe(true);
  });

  test.each(["stopped", "hibernated", "restoring"])("a VM %s and not running is not stopped again", (status) => {
    expect(poweredOn({ running: false, status })).toBe(false);
  });
});

describe("describeStep: one line says what the reset did to the VM", () => {
  test("a running VM: killed, restored, running", () => {
    expect(describeStep(planReset(target("running"), on))).toBe("killed, restored to snapshot 9, running");
  });
  test("a stopped VM declared stopped: restored, stopped", () => {
    expect(describeStep(planReset(target("stopped"), off))).toBe("restored to snapshot 9, stopped");
  });
});

describe("planWaves: the VMs reset at once, in order, a machine at most once a wave", () => {
  const vm = (machineKey: string) => ({ vm: { machineKey } });
  test("all in one wave by default; waves of `parallel` otherwise", () => {
    const targets = ["1", "2", "3", "4", "5"].map(vm);
    expect(planWaves(targets)).toEqual([targets]);
    expect(planWaves(targets, 2)).toEqual([targets.slice(0, 2), targets.slice(2, 4), targets.slice(4)]);
  });
  test("a machine named twice goes to a later wave (its second reset would wait for the first, which waits for the wave)", () => {
    const [a, b, a2] = [vm("1"), vm("2"), vm("1")];
    expect(planWaves([a, a2, b])).toEqual([[a, b], [a2]]);
  });
});

describe("a wave's VMs share their status reads: one look, then one poll whose first read serves them all", () => {
  /**
   * A platform of `n` running VMs whose restores take `restoreMs` (with their power-on) and whose answers come
   * `answerMs` apart, as a busy client's queue hands them back; counts the status reads (the hardware look finds
   * nothing to put back: the session's batched reads of it are counted end to end, test/e2e/classLab.test.ts).
   */
  function platform(n: number, restoreMs: number, answerMs: number) {
    const clock = timerClock();
    const status = new Map<string, { status: string; until?: number }>();
    for (let i = 1; i <= n; i++) status.set(String(100 + i), { status: "running" });
    let reads = 0;
    let answering = 0;
    const api = {
      async list(table: string, query: { filter: string }) {
        // The hardware look (the VM's and its snapshot's NICs and devices): none to put back here.
        if (table === VM_TABLE) return [{ machine: "900" }];
        if (table !== "machine_status") return [];
        reads++;
        const keys = query.filter.split(" or ").map((c) => c.replace("$key eq ", ""));
        return keys.map((key) => {
          const s = status.get(key)!;
          const now = s.until !== undefined && clock.now() >= s.until ? "running" : s.status;
          return { $key: key, running: now === "running", status: now, last_update: 1 };
        });
      },
      async action(_table: string, body: { vm: string; action: string }) {
        const key = String(100 + Number(body.vm));
        await clock.sleep(++answering * answerMs);
        if (body.action === "kill") status.set(key, { status: "stopped" });
        if (body.action === "restore") status.set(key, { status: "restoring", until: clock.now() + restoreMs });
        return {};
      },
    } as unknown as PlatformApi;
    const targets: ResetTarget[] = Array.from({ length: n }, (_, i) => ({
      vm: { vmKey: String(i + 1), machineKey: String(101 + i), name: `vm-${i + 1}` },
      snapshot: "9",
      powerState: "running",
    }));
    return { clock, api, targets, reads: () => reads };
  }
  const timeouts = { powerChange: 60, gracefulShutdown: 60, forcedShutdown: 30, restore: 600 };

  test("10 VMs whose restores are answered 100 ms apart and take 50 ms: two reads in all (the floor's look and one)", async () => {
    const p = platform(10, 50, 100);
    let outcomes: ResetOutcome[] = [];
    void resetVms(new Session(p.api), p.targets, { timeouts, clock: p.clock }).then((o) => (outcomes = o));
    await p.clock.run(() => outcomes.length > 0);
    expect(outcomes.map((o) => o.step && describeStep(o.step))).toEqual(Array(10).fill("killed, restored to snapshot 9, running"));
    expect(p.reads()).toBe(2);
  });

  test("in waves of 5: a look and a read a wave", async () => {
    const p = platform(10, 50, 100);
    let outcomes: ResetOutcome[] = [];
    void resetVms(new Session(p.api), p.targets, { timeouts, clock: p.clock, parallel: 5 }).then((o) => (outcomes = o));
    await p.clock.run(() => outcomes.length > 0);
    expect(outcomes.every((o) => o.step)).toBe(true);
    expect(p.reads()).toBe(4);
  });
});
