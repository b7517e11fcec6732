import { Session } from "./session";
import { type MachineOwner, changeHardware, unplugAndDeleteDrive } from "./hardware";
import type { PlatformApi, Row } from "./platform";
import { DEFAULT_TEST_TIMEOUTS, fakeClock } from "./testClock";

function drivePlatform(statusSequence: string[]) {
  const calls: string[] = [];
  const api: PlatformApi = {
    async get(table, key) {
      calls.push(`GET ${table}/${key}`);
      return { hotplug_status: statusSequence.shift() ?? "offline" } as Row;
    },
    create: async () => ({ $key: "" }),
    async action(table, body) {
      calls.push(`POST ${table} ${String(body.action)}`);
      return {};
    },
    async remove(table, key) {
      calls.push(`DELETE ${table}/${key}`);
    },
    async list(table, query) {
      calls.push(`GET ${table}?${query?.filter}`);
      return [{ $key: "9", hotplug_status: statusSequence.shift() ?? "offline" }];
    },
    update: async () => undefined,
  };
  return { api: new Session(api), calls };
}

const owner = (running: boolean, allowHotplug: boolean): MachineOwner => ({
  ref: { vmKey: "42", machineKey: "54", name: "web" },
  allowHotplug,
  status: running ? { running: true, status: "running" } : { running: false, status: "stopped" },
});

describe("unplugAndDeleteDrive", () => {
  test("sends the unplug ONCE, waits for offline, then deletes", async () => {
    const p = drivePlatform(["hotplugging", "hotplugging", "offline"]);
    await unplugAndDeleteDrive(p.api, owner(true, true), "9", "data", DEFAULT_TEST_TIMEOUTS, fakeClock());
    expect(p.calls.filter((c) => c.startsWith("POST"))).toEqual(["POST vm_actions hotplugdrive"]);
    expect(p.calls.at(-1)).toBe("DELETE machine_drives/9");
    expect(p.calls.filter((c) => c.startsWith("GET"))).toEqual(Array(3).fill("GET machine_drives?$key eq 9"));
  });
});

describe("changeHardware", () => {
  test("a running VM without hotplug follows the refuse policy with a clear error", async () => {
    const p = drivePlatform([]);
    const change = jest.fn();
    await expect(
      changeHardware(p.api, owner(true, false), "adding drive 'data'", "refuse", DEFAULT_TEST_TIMEOUTS, change, fakeClock()),
    ).rejects.toThrow(/adding drive 'data' \(VM has no hotplug\)/);
    expect(change).not.toHaveBeenCalled();
  });

  test("a hotplug VM or a stopped VM takes the change directly", async () => {
    const p = drivePlatform([]);
    const change = jest.fn(async () => "ok");
    await changeHardware(p.api, owner(true, true), "x", "refuse", DEFAULT_TEST_TIMEOUTS, change, fakeClock());
    await changeHardware(p.api, owner(false, false), "x", "refuse", DEFAULT_TEST_TIMEOUTS, change, fakeClock());
    expect(change).toHaveBeenCalledTimes(2);
    expect(p.calls).toEqual([]);
  });
});
