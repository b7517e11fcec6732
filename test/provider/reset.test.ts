/**
 * Resetting lab VMs to their snapshot (`vplatform env reset`'s engine) against the emulator: each VM's drives
 * are back to the snapshot's content and its power to the declared state, within the floor of requests (a kill
 * and a restore that powers on per running VM, the reads shared); an action fault still ends in one restore.
 */
import { DEFAULT_TIMEOUTS } from "../../provider/schemas/common";
import { platformApiFromConfig } from "../../provider/reconcile/platformClient";
import { type ResetTarget, resetVms } from "../../provider/reconcile/reset";
import { Session } from "../../provider/reconcile/session";
import { type Clock, realClock } from "../../provider/reconcile/waitFor";
import { type Lab, startLab } from "./harness";

jest.setTimeout(60_000);
let lab: Lab;
let session: Session;
const lines: string[] = [];
const clock: Clock = { ...realClock, log: (line) => lines.push(line), progress: () => {} };
beforeAll(async () => {
  lab = await startLab();
  const config: Record<string, string> = {
    "vplatform:endpoint": lab.emu.url,
    "vplatform:apiKey": lab.emu.apiKey,
    "vplatform:caCert": lab.emu.caCert,
  };
  session = new Session(platformApiFromConfig((k) => config[k]));
});
afterEach(() => lab.hook("DELETE", "/_emulator/faults"));
afterAll(async () => {
  session.close();
  await lab.close();
});

const status = async (machine: string): Promise<string> => (await lab.api("GET", `machine_status/${machine}?fields=status`)).status;
async function until(machine: string, wanted: string): Promise<void> {
  for (let i = 0; i < 200 && (await status(machine)) !== wanted; i++) await new Promise((r) => setTimeout(r, 20));
  expect(await status(machine)).toBe(wanted);
}
const content = (drive: string) => `/_emulator/drives/${drive}/content`;

interface LabVm {
  target: ResetTarget;
  drive: string;
}

/** A VM with a drive written "start", a snapshot of it, then (when `running`) powered on, and its drive written over. */
async function labVm(name: string, running: boolean, powerState?: "running" | "stopped"): Promise<LabVm> {
  const created = await lab.api("POST", "vms", { name });
  const machine = String(created.response.machine);
  const drive = String((await lab.api("POST", "machine_drives", { machine, media: "disk", disksize: 1024 ** 3 })).$key);
  await lab.hook("PUT", content(drive), { content: "start" });
  const snapshot = String(
    (await lab.api("POST", "vm_actions", { vm: created.$key, action: "snapshot", params: { name: "start" } })).response.vmkey,
  );
  await until(machine, "stopped");
  if (running) {
    await lab.api("POST", "vm_actions", { vm: created.$key, action: "poweron", params: {} });
    await until(machine, "running");
  }
  await lab.hook("PUT", content(drive), { content: "student work" });
  return {
    target: { vm: { vmKey: String(created.$key), machineKey: machine, name }, snapshot, ...(powerState ? { powerState } : {}) },
    drive,
  };
}

async function expectReset(vms: LabVm[]): Promise<void> {
  for (const { target, drive } of vms) {
    expect((await lab.hook("GET", content(drive))).content).toBe("start");
    expect(await status(target.vm.machineKey)).toBe(target.powerState ?? "stopped");
  }
}

const actionPosts = async () =>
  (await lab.requests()).entries.filter((e) => e.table === "vm_actions" && e.method === "POST").reduce((n, e) => n + e.count, 0);

describe("a reset puts every VM back to its snapshot and its declared power state", () => {
  test("12 VMs (10 running, one declared stopped, one left stopped): at most 3 requests per VM, all reads shared", async () => {
    const vms = await Promise.all([
      ...Array.from({ length: 10 }, (_, i) => labVm(`rs-run-${i}`, true, "running")),
      labVm("rs-to-stop", true, "stopped"),
      labVm("rs-stopped", false),
    ]);
    await lab.resetRequests();
    const started = Date.now();
    const outcomes = await resetVms(
      session,
      vms.map((v) => v.target),
      { timeouts: DEFAULT_TIMEOUTS, clock },
    );
    const wall = Date.now() - started;
    expect(outcomes.filter((o) => o.error)).toEqual([]);
    const { total } = await lab.requests();
    // The floor: a kill and a restore (that powers on) per running VM, a restore alone per stopped one: 23 POSTs.
    expect(await actionPosts()).toBe(11 * 2 + 1);
    expect(total).toBeLessThanOrEqual(3 * vms.length);
    console.log(`reset of ${vms.length} VMs: ${total} requests (${(total / vms.length).toFixed(2)} per VM), ${wall} ms at timeScale 0.01`);
    await expectReset(vms);
    expect(outcomes.map((o) => o.step?.stop)).toEqual([...Array(11).fill(true), false]);
    expect(lines.filter((l) => l.includes("'rs-run-0':"))).toEqual([
      `vplatform: VM 'rs-run-0': killed, restored to snapshot ${vms[0].target.snapshot}, running`,
    ]);
  });

  test.each([
    ["a 503 (not processed)", { status: 503 }, 2],
    ["a dropped answer (processed)", { dropAfter: true }, 1],
  ])("a restore that meets %s ends in one effective restore", async (name, fault, restorePosts) => {
    const tag = name.startsWith("a 503") ? "503" : "drop";
    const vms = await Promise.all([labVm(`rs-${tag}-a`, true, "running"), labVm(`rs-${tag}-b`, false, "stopped")]);
    await lab.hook("POST", "/_emulator/faults", {
      method: "POST",
      table: "vm_actions",
      where: { vm: vms[0].target.vm.vmKey, action: "restore" },
      count: 1,
      ...fault,
    });
    await lab.resetRequests();
    const outcomes = await resetVms(
      session,
      vms.map((v) => v.target),
      { timeouts: DEFAULT_TIMEOUTS, clock },
    );
    expect(outcomes.filter((o) => o.error)).toEqual([]);
    // VM a: kill + its restore(s); VM b: one restore.
    expect(await actionPosts()).toBe(1 + restorePosts + 1);
    await expectReset(vms);
  });
});
