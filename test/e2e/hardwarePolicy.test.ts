// A drive follows its VM's powerCyclePolicy even when the VM is not part of
// the run: `pulumi up --target <drive>` on a running VM without hotplug whose
// policy is "refuse" must fail, not restart the VM.
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { collect, startE2e, type E2eContext } from "./harness";

const GiB = 1024 ** 3;
let withExtraDrive = false;

const program: PulumiFn = async () => {
  const vp = require("vplatform");
  // Power left alone (no powerState): it is started outside Pulumi below.
  const vm = new vp.VirtualMachine("db", { name: "e2e-db", allowHotplug: false, powerCyclePolicy: "refuse" });
  new vp.Drive("db-os", { machine: vm.machineKey, name: "os", disksize: 5 * GiB });
  if (withExtraDrive) new vp.Drive("db-extra", { machine: vm.machineKey, name: "extra", disksize: 5 * GiB });
  return { vmKey: vm.id, machineKey: vm.machineKey };
};

let ctx: E2eContext;
beforeAll(async () => {
  ctx = await startE2e("hardware-policy", program);
}, 120_000);
afterAll(async () => ctx?.dispose());

const machineStatus = async (vmKey: string) =>
  (await ctx.api("GET", `/v4/vms/${vmKey}?fields=machine%23status%23status%20as%20status`)).body.status;

describe("--target on a drive of a running VM whose powerCyclePolicy is refuse", () => {
  let vmKey: string;
  let machineKey: string;

  test("the stack is up and the VM then started outside Pulumi", async () => {
    const up = await ctx.stack.up(collect(ctx));
    expect(up.summary.result).toBe("succeeded");
    vmKey = up.outputs.vmKey.value;
    machineKey = up.outputs.machineKey.value;
    expect((await ctx.api("POST", "/v4/vm_actions", { vm: vmKey, action: "poweron" })).status).toBeLessThan(300);
    for (let i = 0; i < 200 && (await machineStatus(vmKey)) !== "running"; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await machineStatus(vmKey)).toBe("running");
  }, 300_000);

  test("fails naming the policy, and the VM is neither stopped nor given the drive", async () => {
    withExtraDrive = true;
    const urns: string[] = [];
    await ctx.stack.preview({ ...collect(ctx), onEvent: (e) => e.resourcePreEvent && urns.push(e.resourcePreEvent.metadata.urn) });
    const target = urns.find((u) => u.endsWith("::db-extra"));
    expect(target).toBeDefined();
    await ctx.resetRequestCounts();
    await expect(ctx.stack.up({ ...collect(ctx), target: [target!] })).rejects.toThrow(/powerCyclePolicy is "refuse"/);
    const counts = await ctx.requestCounts();
    expect(counts.entries.filter((e) => e.table === "vm_actions")).toEqual([]);
    expect(await machineStatus(vmKey)).toBe("running");
    const drives = (await ctx.api("GET", `/v4/machine_drives?filter=machine%20eq%20${machineKey}&fields=name`)).body;
    expect(drives.map((d: { name: string }) => d.name)).toEqual(["os"]);
  }, 300_000);

  test("once stopped, the same targeted up adds the drive", async () => {
    expect((await ctx.api("POST", "/v4/vm_actions", { vm: vmKey, action: "kill" })).status).toBeLessThan(300);
    for (let i = 0; i < 200 && (await machineStatus(vmKey)) !== "stopped"; i++) await new Promise((r) => setTimeout(r, 50));
    const up = await ctx.stack.up(collect(ctx));
    expect(up.summary.result).toBe("succeeded");
    const drives = (await ctx.api("GET", `/v4/machine_drives?filter=machine%20eq%20${machineKey}&fields=name&sort=%2Bname`)).body;
    expect(drives.map((d: { name: string }) => d.name)).toEqual(["extra", "os"]);
    await ctx.stack.destroy(collect(ctx));
  }, 300_000);
});
