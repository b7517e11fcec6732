// Removing an optional input from the program under the real engine: for one
// input of every resource, up with it set, up without it, then a preview and a
// refresh show no changes (the generated provider-level test covers every input:
// test/provider/removedInputs.test.ts).
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { collect, startE2e, type E2eContext } from "./harness";

const GiB = 1024 ** 3;
let declared = true;
/** The optional input under test, on or off. */
const opt = <T extends object>(value: T) => (declared ? value : {});

const program: PulumiFn = async () => {
  const vp = require("vplatform");
  const net = new vp.Vnet("net", { name: "e2e-rm-net", network: "10.40.0.0/24", ...opt({ description: "lab network" }) });
  const vm = new vp.VirtualMachine("vm", { name: "e2e-rm-vm", ...opt({ description: "web server" }) });
  new vp.Drive("vm-os", { machine: vm.machineKey, name: "os", disksize: 5 * GiB, ...opt({ description: "system disk" }) });
  new vp.Nic("vm-eth0", { machine: vm.machineKey, vnet: net.id, ...opt({ ipaddress: "10.40.0.5" }) });
  new vp.Device("vm-gpu", { machine: vm.machineKey, resourceGroup: "0f3e6a52-6d1b-4b8e-9a51-a100a100a001", ...opt({ optional: true }) });
  new vp.VmSnapshot("vm-snap", { vm: vm.id, name: "base", ...opt({ quiesce: true }) });
  new vp.VmPower("vm-power", { vm: vm.id, state: "stopped", ...opt({ timeouts: { powerChange: 30 } }) });
};

let ctx: E2eContext;
beforeAll(async () => {
  ctx = await startE2e("removed-inputs", program);
}, 120_000);
afterAll(async () => ctx?.dispose());

const changed = (summary: Record<string, number | undefined>) => Object.keys(summary).filter((k) => k !== "same" && summary[k]);

describe("an optional input removed from the program leaves no diff behind", () => {
  test("up with one optional input set on every resource", async () => {
    expect((await ctx.stack.up(collect(ctx))).summary.result).toBe("succeeded");
  }, 300_000);

  test("up without them updates in place (nothing replaced)", async () => {
    declared = false;
    const up = await ctx.stack.up(collect(ctx));
    expect(up.summary.result).toBe("succeeded");
    expect(Object.keys(up.summary.resourceChanges ?? {}).filter((k) => k !== "same" && k !== "update")).toEqual([]);
  }, 300_000);

  test("the next preview, up and refresh show no changes", async () => {
    expect(changed((await ctx.stack.preview(collect(ctx))).changeSummary)).toEqual([]);
    expect(changed((await ctx.stack.up(collect(ctx))).summary.resourceChanges ?? {})).toEqual([]);
    expect(changed((await ctx.stack.refresh(collect(ctx))).summary.resourceChanges ?? {})).toEqual([]);
    expect(changed((await ctx.stack.preview(collect(ctx))).changeSummary)).toEqual([]);
  }, 300_000);

  test("destroy removes everything", async () => {
    expect((await ctx.stack.destroy(collect(ctx))).summary.result).toBe("succeeded");
  }, 300_000);
});
