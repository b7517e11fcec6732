import { Session } from "./session";
import type { MachineStatus } from "./machineStatus";
import type { PlatformApi, Row } from "./platform";
import { PowerCycleRefusedError, applyWithPowerCycle, powerOff, powerOn } from "./power";
import { fakeClock } from "./testClock";
import { ApiError as ClientError } from "../client/errors";
import { UnconfirmedActionError } from "./confirmedAction";

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

/**
 * How a request to the platform fails: "503" is answered without being processed; "dropped" (connection reset
 * after sending) and "late" (answered past the client's timeout) are processed and their answer lost; "lost" is
 * lost before the platform processed it.
 */
type Fault = "503" | "dropped" | "late" | "lost";

const failure = (fault: Fault): ClientError =>
  fault === "503"
    ? new ClientError(503, "POST", "/v4/vm_actions", "injected fault")
    : fault === "dropped"
      ? new ClientError(0, "POST", "/v4/vm_actions", "ECONNRESET: socket hang up", "ECONNRESET")
      : new ClientError(0, "POST", "/v4/vm_actions", "ETIMEDOUT: Timeout awaiting 'request'", "ETIMEDOUT");

/**
 * One machine; starts and graceful stops take effect after `lag` status reads, a kill at once (as the
 * platform's); a guest may ignore ACPI; `faults` fail the next requests of an action as told.
 * `actions` lists every action sent, `effective` those that changed the machine.
 */
function fakeMachine(
  initial: MachineStatus,
  opts: { ignoresAcpi?: boolean; lag?: number; faults?: Partial<Record<string, Fault[]>> } = {},
) {
  let status = { ...initial };
  let pending: { target: MachineStatus; reads: number } | undefined;
  const actions: string[] = [];
  const effective: string[] = [];
  const read = (table: string) => {
    expect(table).toBe("machine_status");
    if (pending && --pending.reads <= 0) {
      status = pending.target;
      pending = undefined;
    }
    return { ...status } as Row;
  };
  const apply = (action: string) => {
    const running = status.running;
    if (action === "poweron") {
      if (running) throw new ApiError(409, "cannot power on, already running");
      status = { running: false, status: "starting" };
      pending = { target: { running: true, status: "running" }, reads: opts.lag ?? 2 };
    } else if (action === "poweroff") {
      if (!running) throw new ApiError(409, "cannot power off, not running");
      if (opts.ignoresAcpi) return;
      status = { running: true, status: "stopping" };
      pending = { target: { running: false, status: "stopped" }, reads: opts.lag ?? 2 };
    } else if (action === "kill") {
      if (!running) throw new ApiError(409, "cannot power off, not running");
      status = { running: false, status: "stopped" };
      pending = undefined;
    }
    effective.push(action);
  };
  const api: PlatformApi = {
    get: async (table) => read(table),
    create: async () => ({ $key: "" }),
    async action(table, body) {
      expect(table).toBe("vm_actions");
      const action = String(body.action);
      actions.push(action);
      const fault = opts.faults?.[action]?.shift();
      if (fault === "503" || fault === "lost") throw failure(fault);
      apply(action);
      if (fault) throw failure(fault);
      return {};
    },
    // Waits and looks read the status through the coalesced poller: a filtered list of machine_status.
    list: async (table, query) => {
      expect(query?.filter).toBe(`$key eq ${vm.machineKey}`);
      return [{ $key: vm.machineKey, ...read(table) }];
    },
    update: async () => undefined,
    remove: async () => undefined,
  };
  return { api: new Session(api), actions, effective, current: () => status };
}

const stopped = { running: false, status: "stopped" };
const running = { running: true, status: "running" };

/** Each power action from the state it acts on, how it is run, and the status a look sees before it took. */
const POWER_ACTIONS = [
  { action: "poweron", from: stopped, run: powerOn, before: "stopped", ignoresAcpi: false },
  { action: "poweroff", from: running, run: powerOff, before: "running", ignoresAcpi: false },
  { action: "kill", from: running, run: powerOff, before: "running", ignoresAcpi: true },
] as const;

describe.each(POWER_ACTIONS)(
  "a $action whose request fails ends in exactly one effective $action",
  ({ action, from, run, before, ignoresAcpi }) => {
    const target = from === stopped ? running : stopped;

    test("503 (not processed): the status read shows it not taken, so it is sent once more", async () => {
      const m = fakeMachine(from, { ignoresAcpi, faults: { [action]: ["503"] } });
      const clock = fakeClock();
      await run(m.api, vm, timeouts, clock);
      expect(m.actions.filter((a) => a === action)).toEqual([action, action]);
      expect(m.effective.filter((a) => a === action)).toEqual([action]);
      expect(m.current()).toEqual(target);
      expect(clock.lines).toContainEqual(expect.stringMatching(new RegExp(`503 .*status ${before} shows it not taken; sending it again`)));
    });

    test.each(["dropped", "late"] as const)(
      "%s answer (processed): the status read shows it taken, nothing is sent again",
      async (fault) => {
        const m = fakeMachine(from, { ignoresAcpi, faults: { [action]: [fault] } });
        const clock = fakeClock();
        await run(m.api, vm, timeouts, clock);
        expect(m.actions.filter((a) => a === action)).toEqual([action]);
        expect(m.effective.filter((a) => a === action)).toEqual([action]);
        expect(m.current()).toEqual(target);
        expect(clock.lines).toContainEqual(expect.stringMatching(/no response .*status \w+ shows it taken/));
      },
    );
  },
);

describe("a power action sent until its time limit", () => {
  test("answers lost until timeouts.powerChange runs out fail, naming the action, the last error and the limit", async () => {
    const m = fakeMachine(stopped, { faults: { poweron: Array(100).fill("lost") } });
    const err = await powerOn(m.api, vm, timeouts, fakeClock()).catch((e) => e);
    expect(err).toBeInstanceOf(UnconfirmedActionError);
    expect(err.message).toMatch(/power-on of VM 'web': POST \/v4\/vm_actions: no response ETIMEDOUT.*timeouts\.powerChange \(60 s\)/);
    expect(m.effective).toEqual([]);
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
