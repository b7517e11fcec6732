/**
 * Actions that make no row (power, restore, a drive's hot-unplug) under the emulator's faults: a 503 (not processed), a dropped
 * answer and a late answer (both processed) each end in one effective action within the same operation;
 * the status read decides whether the action is sent again (unit tests: confirmedAction, power).
 */
import { type Lab, checkedCreate, providers, startLab } from "./harness";

const REQUEST_TIMEOUT_MS = 1_000;
// A restore waits a whole second of the status's clock and then for the action to settle: 3-4 s alone, more on a
// loaded 2-core CI machine than jest's default 5 s allows.
jest.setTimeout(30_000);
let lab: Lab;
beforeAll(async () => {
  lab = await startLab({ "vplatform:requestTimeoutMs": String(REQUEST_TIMEOUT_MS) });
});
afterEach(() => lab.hook("DELETE", "/_emulator/faults"));
afterAll(() => lab.close());

const FAULTS = {
  "503": { status: 503, sentTimes: 2 },
  "dropped answer": { dropAfter: true, sentTimes: 1 },
  "late answer": { lateMs: REQUEST_TIMEOUT_MS + 500, sentTimes: 1 },
} as const;

const status = async (machineKey: string) => (await lab.api("GET", `machine_status/${machineKey}?fields=status`)).status;

/** Arms a fault on the next `vm_actions` POST of `action` to VM `vm`, and records each such POST's action for counting. */
async function armOnce(vm: string, action: string, fault: (typeof FAULTS)[keyof typeof FAULTS]) {
  const { sentTimes: _s, ...spec } = fault;
  await lab.hook("POST", "/_emulator/faults", { method: "POST", table: "vm_actions", where: { vm, action }, count: 1, ...spec });
}

/** POSTs to vm_actions since the counter was reset (the operation sends only the action under test). */
async function actionPosts(): Promise<number> {
  return (await lab.requests()).entries.filter((e) => e.table === "vm_actions" && e.method === "POST").reduce((n, e) => n + e.count, 0);
}

describe.each(Object.entries(FAULTS))("an action whose request meets a %s ends in one effective action", (name, fault) => {
  const times = fault.sentTimes === 1 ? "sent once" : "sent twice (the 503 was not processed)";
  test(`VmPower running: the power-on is ${times}, the VM runs`, async () => {
    const vm = await checkedCreate(providers.VirtualMachine(), { name: `af-on-${name.replace(/ /g, "-")}` });
    await armOnce(vm.id, "poweron", fault);
    await lab.resetRequests();
    await checkedCreate(providers.VmPower(), { vm: vm.id, state: "running" });
    expect(await actionPosts()).toBe(fault.sentTimes);
    expect(await status(vm.outs.machineKey)).toBe("running");
  });

  test(`VmPower stopped: the shutdown is ${times}, the VM stops`, async () => {
    const vm = await checkedCreate(providers.VirtualMachine(), { name: `af-off-${name.replace(/ /g, "-")}`, powerState: "running" });
    await armOnce(vm.id, "poweroff", fault);
    await lab.resetRequests();
    await checkedCreate(providers.VmPower(), { vm: vm.id, state: "stopped" });
    expect(await actionPosts()).toBe(fault.sentTimes);
    expect(await status(vm.outs.machineKey)).toBe("stopped");
  });

  test(`a drive removed from a running hotplug VM: the unplug is ${times}, the drive is deleted`, async () => {
    const vm = await checkedCreate(providers.VirtualMachine(), {
      name: `af-un-${name.replace(/ /g, "-")}`,
      allowHotplug: true,
      powerState: "running",
    });
    const drive = await checkedCreate(providers.Drive(), { machine: vm.outs.machineKey, name: "data", media: "disk", disksize: 1024 ** 3 });
    await armOnce(vm.id, "hotplugdrive", fault);
    await lab.resetRequests();
    await providers.Drive().delete(drive.id, drive.outs);
    expect(await actionPosts()).toBe(fault.sentTimes);
    await expect(lab.api("GET", `machine_drives/${drive.id}`)).rejects.toMatchObject({ status: 404 });
  });

  test(`a snapshot's restoreTrigger: the restore is ${times}, the VM is restored`, async () => {
    const vm = await checkedCreate(providers.VirtualMachine(), { name: `af-rs-${name.replace(/ /g, "-")}`, powerState: "stopped" });
    const p = providers.VmSnapshot();
    const snap = await checkedCreate(p, { vm: vm.id, name: "before" });
    const news = (await p.check(snap.outs, { ...snap.inputs, restoreTrigger: "1" })).inputs;
    // A restore over before the look is known by the status's last change, in whole seconds: let one pass.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await armOnce(vm.id, "restore", fault);
    await lab.resetRequests();
    await p.update(snap.id, snap.outs, news);
    expect(await actionPosts()).toBe(fault.sentTimes);
    expect(await status(vm.outs.machineKey)).toBe("stopped");
  });
});
