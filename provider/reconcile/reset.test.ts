import { describeStep, planReset, poweredOn, type ResetTarget } from "./reset";

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
