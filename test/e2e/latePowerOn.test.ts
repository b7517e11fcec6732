// Issue 20, item 5: a VM declared running whose power-on answer comes after the
// client gave up waiting for it is ridden out in the same `up` (the power-on
// landed; the run sees the VM running and does not fail), under the real engine.
import got from "got";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { collectInto, useCountedStack } from "./countedStack";

const GiB = 1024 ** 3;
const TIMEOUT_MS = 2000;

describe("a power-on whose answer comes late is ridden out in the same up", () => {
  const program: PulumiFn = async () => {
    const vp = require("vplatform");
    const late = new vp.VirtualMachine("late", { name: "late", cpuCores: 1, ram: 512, powerState: "running" });
    const cold = new vp.VirtualMachine("cold", { name: "cold", cpuCores: 1, ram: 512, powerState: "running" });
    new vp.Drive("cold-os", { machine: cold.machineKey, name: "os", disksize: GiB, preferredTier: 3 });
    return { late: late.id };
  };
  const run = useCountedStack("late-power-on", program, { timeScale: 0.01 }, { "vplatform:requestTimeoutMs": String(TIMEOUT_MS) });

  test("up succeeds with both VMs running, the one started at its create and the one started after its drive", async () => {
    const admin = { username: run().emu.adminUser, password: run().emu.adminPassword, https: { certificateAuthority: run().emu.caCert } };
    const fault = { method: "POST", table: "vm_actions", where: { action: "poweron" }, lateMs: TIMEOUT_MS + 500, count: 2 };
    await got.post(`${run().emu.url}/_emulator/faults`, { ...admin, json: fault });
    expect((await run().stack.up(collectInto(run()))).summary.result).toBe("succeeded");
    const rows = await run().api("/v4/vms?fields=name,machine%23status%23status%20as%20status&sort=name");
    expect(rows).toEqual([
      { name: "cold", status: "running" },
      { name: "late", status: "running" },
    ]);
    const preview = await run().stack.preview({ ...collectInto(run()), expectNoChanges: true });
    expect(preview.changeSummary.same).toBeGreaterThan(0);
  }, 300_000);
});
