import { planVmUpdate, type VmStep } from "./updatePlan";

const olds = {
  name: "web",
  cpuCores: 2,
  ram: 2048,
  console: "vnc",
  powerCyclePolicy: "restart",
  machineKey: "54",
  status: "running",
  running: true,
};
const running = { running: true, allowHotplug: false };
const runningHotplug = { running: true, allowHotplug: true };
const stopped = { running: false, allowHotplug: false };

function steps(plan: ReturnType<typeof planVmUpdate>): VmStep[] {
  if (!plan.ok) throw new Error(plan.error);
  return plan.steps;
}

describe("what the PUT carries", () => {
  test("only the changed fields, in the API's names and representations", () => {
    expect(steps(planVmUpdate(olds, { ...olds, name: "www", uefi: true, usbTablet: false }, stopped))).toEqual([
      { kind: "put", body: { name: "www", uefi: "true", usb_tablet: false } },
    ]);
  });
  test("nothing when only provider-only inputs changed", () => {
    expect(steps(planVmUpdate(olds, { ...olds, powerCyclePolicy: "refuse", timeouts: { create: 5 }, adopt: true }, running))).toEqual([]);
  });
  test("neither create-only fields nor the note, which has its own action", () => {
    expect(steps(planVmUpdate({ ...olds, cluster: "1", note: "a" }, { ...olds, cluster: "2", note: "b" }, stopped))).toEqual([
      { kind: "setNote", text: "b" },
    ]);
  });
  test("cloud-init files are synced through their table, never in the PUT", () => {
    const files = [{ name: "/user-data", contents: "b" }];
    expect(
      steps(
        planVmUpdate({ ...olds, cloudinitFiles: [{ name: "/user-data", contents: "a" }] }, { ...olds, cloudinitFiles: files }, running),
      ),
    ).toEqual([{ kind: "syncCloudinitFiles", files }]);
  });
  test("cloud-init files no longer declared are left as they are", () => {
    expect(steps(planVmUpdate({ ...olds, cloudinitFiles: [{ name: "/user-data", contents: "a" }] }, olds, running))).toEqual([]);
  });
  test("a value equal after normalization is not sent", () => {
    expect(steps(planVmUpdate({ ...olds, cpuCores: "2", uefi: "false" }, { ...olds, uefi: false }, running))).toEqual([]);
  });
});

describe("a stopped VM", () => {
  test("takes every change without a power cycle", () => {
    expect(steps(planVmUpdate(olds, { ...olds, cpuCores: 4, powerCyclePolicy: "refuse" }, stopped))).toEqual([
      { kind: "put", body: { cpu_cores: 4 } },
    ]);
  });
  test("is powered on after the changes when powerState is running", () => {
    expect(steps(planVmUpdate(olds, { ...olds, ram: 4096, powerState: "running" }, stopped))).toEqual([
      { kind: "put", body: { ram: 4096 } },
      { kind: "powerOn", reason: "powerState is running" },
    ]);
  });
});

describe("a running VM", () => {
  test("is powered off before the changes when powerState is stopped (no cycle needed)", () => {
    expect(steps(planVmUpdate(olds, { ...olds, cpuCores: 4, powerState: "stopped", powerCyclePolicy: "refuse" }, running))).toEqual([
      { kind: "powerOff", reason: "powerState is stopped" },
      { kind: "put", body: { cpu_cores: 4 } },
    ]);
  });
  test("without hotplug is stopped, changed and started again for a power-cycle change", () => {
    const reason = "cpuCores 2 → 4 needs a power cycle of VM 'web'";
    expect(steps(planVmUpdate(olds, { ...olds, cpuCores: 4 }, running))).toEqual([
      { kind: "powerOff", reason },
      { kind: "put", body: { cpu_cores: 4 } },
      { kind: "powerOn", reason },
    ]);
  });
  test("with hotplug takes the PUT live and is cycled afterwards", () => {
    expect(steps(planVmUpdate(olds, { ...olds, cpuCores: 4, ram: 4096, note: "n" }, runningHotplug))).toEqual([
      { kind: "put", body: { cpu_cores: 4, ram: 4096 } },
      { kind: "setNote", text: "n" },
      { kind: "powerCycle", reason: "cpuCores 2 → 4, ram 2048 → 4096 need a power cycle of VM 'web'" },
    ]);
  });
  test("says why it restarts, and only when it does", () => {
    expect(planVmUpdate(olds, { ...olds, cpuCores: 4 }, running)).toMatchObject({
      restart: "cpuCores 2 → 4 needs a power cycle of VM 'web'",
    });
    expect(planVmUpdate(olds, { ...olds, cpuCores: 4, powerState: "stopped" }, running)).not.toHaveProperty("restart");
    expect(planVmUpdate(olds, { ...olds, console: "spice" }, running)).not.toHaveProperty("restart");
  });
  test("with powerCyclePolicy refuse fails, naming the fields, the VM and the way out", () => {
    const plan = planVmUpdate(olds, { ...olds, cpuCores: 4, powerCyclePolicy: "refuse" }, running);
    expect(plan).toMatchObject({
      ok: false,
      error:
        "cpuCores 2 → 4 needs a power cycle of VM 'web' and powerCyclePolicy is 'refuse': set powerCyclePolicy to 'restart', or powerState to 'stopped', to apply it",
    });
  });
  test("restarts by default (the schema's default policy) when the policy is absent", () => {
    const { powerCyclePolicy: _p, ...news } = { ...olds, cpuCores: 4 };
    expect(steps(planVmUpdate(olds, news, runningHotplug)).map((s) => s.kind)).toEqual(["put", "powerCycle"]);
  });
  test("gets next-start changes without a cycle, with a warning when they wait for the next start", () => {
    const plan = planVmUpdate(olds, { ...olds, console: "spice", powerCyclePolicy: "refuse" }, running);
    expect(steps(plan)).toEqual([{ kind: "put", body: { console: "spice" } }]);
    expect(plan.ok && plan.warnings).toEqual(["console vnc → spice applies at the next start of VM 'web'"]);
  });
  test("is left running when powerState is running and nothing needs a cycle", () => {
    expect(steps(planVmUpdate(olds, { ...olds, description: "d", powerState: "running" }, running))).toEqual([
      { kind: "put", body: { description: "d" } },
    ]);
  });
  test("a dropped power-cycle field needs no cycle", () => {
    const { cpuCores: _c, ...news } = olds;
    expect(steps(planVmUpdate(olds, { ...news, powerCyclePolicy: "refuse" }, running))).toEqual([]);
  });
});

describe("replacements are not updates", () => {
  test("a changed cloneFrom is refused by the update plan", () => {
    const plan = planVmUpdate({ ...olds, cloneFrom: { vm: "7" } }, { ...olds, cloneFrom: { vm: "8" } }, running);
    expect(plan.ok).toBe(false);
    expect(!plan.ok && plan.error).toMatch(/cloneFrom .* replaces the VM/);
  });
});
