import { Session } from "./session";
import type { MachineStatus } from "./machineStatus";
import type { PlatformApi, Row } from "./platform";
import { PowerCycleRefusedError, applyWithPowerCycle, powerOff, powerOn } from "./power";
import { fakeClock } from "./testClock";
import { ApiError as ClientError } from "../client/errors";

const vm = { vmKey: "42", machineKey: "54", name: "web" };
const timeouts = { powerChange: 60, gracefulShutdown: 30, forcedShutdown: 10 };

class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** One machine; actions take effect after `lag` status reads; a guest may ignore ACPI; `unanswered` actions get no answer. */
function fakeMachine(initial: MachineStatus, opts: { ignoresAcpi?: boolean; lag?: number; unanswered?: { taken: boolean }[] } = {}) {
  let status = { ...initial };
  let pending: { target: MachineStatus; reads: number } | undefined;
  const actions: string[] = [];
  const read = (table: string) => {
    expect(table).toBe("machine_status");
    if (pending && --pending.reads <= 0) {
      status = pending.target;
      pending = undefined;
    }
    return { ...status } as Row;
  };
  const api: PlatformApi = {
    get: async (table) => read(table),
    create: async () => ({ $key: "" }),
    async action(table, body) {
      expect(table).toBe("vm_actions");
      const action = String(body.action);
      actions.push(action);
      const lost = opts.unanswered?.shift();
      if (lost) {
        if (lost.taken) await api.action(table, { ...body, replayed: true }).finally(() => actions.pop());
        throw new ClientError(0, "POST /v4/vm_actions: no response ETIMEDOUT", "ETIMEDOUT");
      }
      const running = status.running;
      if (action === "poweron") {
        if (running) throw new ApiError(409, "cannot power on, already running");
        status = { running: false, status: "starting" };
        pending = { target: { running: true, status: "running" }, reads: opts.lag ?? 2 };
      } else if (action === "poweroff" || action === "kill") {
        if (!running) throw new ApiError(409, "cannot power off, not running");
        if (action === "poweroff" && !opts.ignoresAcpi) status = { running: true, status: "stopping" };
        if (action === "kill" || !opts.ignoresAcpi) pending = { target: { running: false, status: "stopped" }, reads: opts.lag ?? 2 };
      }
      return {};
    },
    // Waits read the status through the coalesced poller: a filtered list of machine_status.
    list: async (table, query) => {
      expect(query?.filter).toBe(`$key eq ${vm.machineKey}`);
      return [{ $key: vm.machineKey, ...read(table) }];
    },
    update: async () => undefined,
    remove: async () => undefined,
  };
  return { api: new Session(api), actions, current: () => status };
}

const stopped = { running: false, status: "stopped" };
const running = { running: true, status: "running" };

describe("a power action whose answer never came is ridden out", () => {
  test("a power-on that was taken: the machine is on its way, the run waits for it and sends nothing more", async () => {
    const m = fakeMachine(stopped, { unanswered: [{ taken: true }] });
    await powerOn(m.api, vm, timeouts, fakeClock());
    expect(m.actions).toEqual(["poweron"]);
    expect(m.current()).toEqual(running);
  });

  test("a power-on that was not taken: the machine is still stopped, so it is sent once more", async () => {
    const m = fakeMachine(stopped, { unanswered: [{ taken: false }] });
    await powerOn(m.api, vm, timeouts, fakeClock());
    expect(m.actions).toEqual(["poweron", "poweron"]);
    expect(m.current()).toEqual(running);
  });

  test("a second lost answer fails the run with the client's error", async () => {
    const m = fakeMachine(stopped, { unanswered: [{ taken: false }, { taken: false }] });
    await expect(powerOn(m.api, vm, timeouts, fakeClock())).rejects.toThrow(/no response ETIMEDOUT/);
  });

  test("a shutdown that was taken is waited for", async () => {
    const m = fakeMachine(running, { unanswered: [{ taken: true }] });
    await powerOff(m.api, vm, timeouts, fakeClock());
    expect(m.actions).toEqual(["poweroff"]);
    expect(m.current()).toEqual(stopped);
  });
});

describe("powerOn", () => {
  test("sends poweron once and waits until the machine status says running", async () => {
    const m = fakeMachine(stopped);
    await powerOn(m.api, vm, timeouts, fakeClock());
    expect(m.actions).toEqual(["poweron"]);
    expect(m.current()).toEqual(running);
  });

  test("a machine that is already running is left alone (409 is not an error)", async () => {
    const m = fakeMachine(running);
    await powerOn(m.api, vm, timeouts, fakeClock());
    expect(m.actions).toEqual(["poweron"]);
  });
});

describe("powerOff", () => {
  test("is graceful first: poweroff, no kill when the guest shuts down", async () => {
    const m = fakeMachine(running);
    await powerOff(m.api, vm, timeouts, fakeClock());
    expect(m.actions).toEqual(["poweroff"]);
    expect(m.current()).toEqual(stopped);
  });

  test("kills only after the graceful timeout passes, and says so", async () => {
    const m = fakeMachine(running, { ignoresAcpi: true });
    const clock = fakeClock();
    await powerOff(m.api, vm, timeouts, clock);
    expect(m.actions).toEqual(["poweroff", "kill"]);
    expect(clock.now()).toBeGreaterThanOrEqual(timeouts.gracefulShutdown * 1000);
    expect(clock.lines.join("\n")).toContain("forcing it off (kill)");
  });

  test("a stopped machine needs nothing", async () => {
    const m = fakeMachine(stopped);
    await powerOff(m.api, vm, timeouts, fakeClock());
    expect(m.current()).toEqual(stopped);
  });
});

describe("applyWithPowerCycle", () => {
  test("restart policy: stop, apply while stopped, start again", async () => {
    const m = fakeMachine(running);
    let statusDuringApply: MachineStatus | undefined;
    await applyWithPowerCycle(m.api, vm, { policy: "restart", reasons: ["ram"], running: true, timeouts, clock: fakeClock() }, async () => {
      statusDuringApply = m.current();
    });
    expect(statusDuringApply).toEqual(stopped);
    expect(m.actions).toEqual(["poweroff", "poweron"]);
    expect(m.current()).toEqual(running);
  });

  test("refuse policy: fails naming the fields, before changing anything", async () => {
    const m = fakeMachine(running);
    const apply = jest.fn();
    const err = await applyWithPowerCycle(
      m.api,
      vm,
      { policy: "refuse", reasons: ["cpuCores", "ram"], running: true, timeouts },
      apply,
    ).catch((e) => e);
    expect(err).toBeInstanceOf(PowerCycleRefusedError);
    expect(err.message).toContain("cpuCores, ram");
    expect(err.message).toContain('powerCyclePolicy is "refuse"');
    expect(apply).not.toHaveBeenCalled();
    expect(m.actions).toEqual([]);
  });

  test("a stopped VM or a live-applicable change is applied directly", async () => {
    const m = fakeMachine(stopped);
    const apply = jest.fn(async () => "done");
    await expect(applyWithPowerCycle(m.api, vm, { policy: "refuse", reasons: ["ram"], running: false, timeouts }, apply)).resolves.toBe(
      "done",
    );
    await expect(applyWithPowerCycle(m.api, vm, { policy: "refuse", reasons: [], running: true, timeouts }, apply)).resolves.toBe("done");
    expect(m.actions).toEqual([]);
  });
});
