// The provider's lines in the dynamic door, under the real engine: each on the resource that wrote it,
// and a wait's progress shown while it runs, ended by a line saying so, not kept under Diagnostics.
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { startEmulator } from "../../emulator";
import { collect, startE2e, type E2eContext } from "./harness";

const VM_TYPE = "pulumi-nodejs:dynamic/vplatform:VirtualMachine";
const desired = { ram: 1024 };
let ctx: E2eContext;

const program: PulumiFn = async () => {
  const vp = require("vplatform");
  new vp.VirtualMachine("web", { name: "lines-web", cpuCores: 1, ram: desired.ram, powerState: "running", powerCyclePolicy: "restart" });
  new vp.VirtualMachine("db", { name: "lines-db", cpuCores: 1, ram: 1024, powerState: "running" });
};

beforeAll(async () => {
  // Time as it passes: a VM takes seconds to start, so its wait shows progress.
  ctx = await startE2e("progress-lines", program, await startEmulator({ port: 0, timeScale: 1, quiet: true }));
}, 120_000);
afterAll(async () => {
  await ctx?.dispose();
});

/** The lines of a run's output before its Diagnostics section, and the section itself. */
function split(text: string): { progress: string; diagnostics: string } {
  const at = text.indexOf("\nDiagnostics:");
  return at < 0 ? { progress: text, diagnostics: "" } : { progress: text.slice(0, at), diagnostics: text.slice(at) };
}

describe("a wait's progress line in the dynamic door", () => {
  test("is shown on the VM that waits (each of two waiting at once on its own), not on the Stack, and not kept under Diagnostics", async () => {
    const up = await ctx.stack.up(collect(ctx));
    expect(up.summary.result).toBe("succeeded");
    const { progress, diagnostics } = split(up.stdout);
    for (const [vm, name] of [
      ["web", "lines-web"],
      ["db", "lines-db"],
    ])
      expect(progress).toMatch(
        new RegExp(`^ \\+  ${VM_TYPE} ${vm} creating \\(\\d+s\\) vplatform: waiting for VM '${name}' to reach running`, "m"),
      );
    // A finished row keeps its resource's latest line until the run ends: its last one says the wait is over.
    for (const [vm, name] of [
      ["web", "lines-web"],
      ["db", "lines-db"],
    ]) {
      const rows = progress.split("\n").filter((l) => l.startsWith(` +  ${VM_TYPE} ${vm} created `));
      expect(rows.at(-1)).toMatch(new RegExp(`created \\(\\d+s\\) vplatform: done waiting for VM '${name}' to reach running \\(\\d+s\\)$`));
    }
    expect(progress).not.toMatch(/VirtualMachine web .*'lines-db'|VirtualMachine db .*'lines-web'|pulumi:pulumi:Stack .*waiting for/);
    expect(diagnostics).not.toMatch(/waiting for/);
  }, 300_000);
});

describe("the RESTART warning of a preview in the dynamic door", () => {
  test("is shown on the VM it is about, and listed under Diagnostics as that VM's", async () => {
    desired.ram = 2048;
    const preview = await ctx.stack.preview(collect(ctx));
    const { progress, diagnostics } = split(preview.stdout);
    const warning = "ram 1024 → 2048 needs a power cycle of VM 'lines-web': the VM will be RESTARTED";
    expect(progress).toMatch(new RegExp(`^ ~  ${VM_TYPE} web update \\[diff: ~ram\\]; vplatform: .*${warning}`, "m"));
    expect(diagnostics).toMatch(new RegExp(`^  ${VM_TYPE} \\(web\\):\\n    vplatform: .*${warning}`, "m"));
    expect(diagnostics).not.toMatch(/pulumi:pulumi:Stack/);
  }, 300_000);
});
