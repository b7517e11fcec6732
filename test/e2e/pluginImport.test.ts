// `pulumi import` of rows made outside Pulumi, by key, through the plugin; then a
// program declaring what the import recorded previews with no changes.
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { collect, startE2e, type E2eContext } from "./harness";
import { resource } from "./pluginResources";

const GiB = 1024 ** 3;
let ctx: E2eContext;
/** What the program declares: filled from the import, like pasting its generated code. */
let declared: { type: string; name: string; inputs: Record<string, unknown> }[] = [];
/** A VM key to look up with `.get()` (a resource read, not managed). */
let getKey: string | undefined;

const program: PulumiFn = async () => {
  for (const r of declared) resource(r.type, r.name, r.inputs);
  if (!getKey) return {};
  const seen = resource("VirtualMachine", "seen", { name: undefined, ram: undefined }, { id: getKey });
  return { seenName: seen.name, seenRam: seen.ram, seenMachine: seen.machineKey };
};

const changed = (summary: Record<string, number | undefined>) => Object.keys(summary).filter((k) => k !== "same" && summary[k]);

beforeAll(async () => {
  ctx = await startE2e("plugin-import", program);
}, 120_000);
afterAll(async () => ctx?.dispose());

describe("pulumi import through the plugin", () => {
  const keys: Record<string, string> = {};

  test("rows created through the API are imported by key, recording inputs that pass check", async () => {
    const net = await ctx.api("POST", "/v4/vnets", { name: "imp-net", network: "10.50.0.0/24", dhcp_enabled: false });
    expect(net.status).toBeLessThan(300);
    keys.net = String(net.body.$key);
    const vm = await ctx.api("POST", "/v4/vms", { name: "imp-web", cpu_cores: 2, ram: 2048 });
    expect(vm.status).toBeLessThan(300);
    keys.vm = String(vm.body.$key);
    const machine = (await ctx.api("GET", `/v4/vms/${keys.vm}?fields=machine`)).body.machine;
    const drive = await ctx.api("POST", "/v4/machine_drives", { machine, name: "os", media: "disk", interface: "virtio-scsi", disksize: 10 * GiB });
    expect(drive.status).toBeLessThan(300);
    keys.drive = String(drive.body.$key);

    const result = await ctx.stack.import({
      resources: [
        { type: "vplatform:index:Vnet", name: "net", id: keys.net },
        { type: "vplatform:index:VirtualMachine", name: "web", id: keys.vm },
        { type: "vplatform:index:Drive", name: "web-os", id: keys.drive },
      ],
      protect: false,
      // Our Node.js language host has no GenerateProgram yet: the code is checked below from what the import recorded.
      generateCode: false,
      ...collect(ctx),
    });
    expect(result.summary.result).toBe("succeeded");
    const state = await ctx.stack.exportStack();
    const imported = state.deployment.resources.filter((r: { type: string }) => r.type.startsWith("vplatform:index:"));
    declared = imported.map((r: { type: string; urn: string; inputs: Record<string, unknown> }) => ({ type: r.type.split(":")[2], name: r.urn.split("::").pop()!, inputs: r.inputs }));
    const byName = Object.fromEntries(declared.map((d) => [d.name, d]));
    expect(Object.keys(byName).sort()).toEqual(["net", "web", "web-os"]);
    expect(byName.net).toMatchObject({ type: "Vnet", inputs: { name: "imp-net", network: "10.50.0.0/24", dhcpEnabled: false } });
    expect(byName.web).toMatchObject({ type: "VirtualMachine", inputs: { name: "imp-web", cpuCores: 2, ram: 2048 } });
    expect(byName["web-os"]).toMatchObject({ type: "Drive", inputs: { machine: String(machine), name: "os", disksize: 10 * GiB } });
  }, 300_000);

  test("a program declaring the imported inputs previews with no changes", async () => {
    const preview = await ctx.stack.preview({ ...collect(ctx), diff: true });
    // On failure the engine's diff (in the message) names the differing fields.
    expect({ changes: changed(preview.changeSummary), diff: preview.stdout }).toEqual({ changes: [], diff: expect.not.stringMatching(/^\s+[~+-] /m) });
    const refresh = await ctx.stack.refresh(collect(ctx));
    expect(changed(refresh.summary.resourceChanges ?? {})).toEqual([]);
  }, 300_000);

  test(".get() reads an existing VM by key into the program without managing it", async () => {
    getKey = keys.vm;
    const up = await ctx.stack.up(collect(ctx));
    const machine = (await ctx.api("GET", `/v4/vms/${keys.vm}?fields=machine`)).body.machine;
    expect([up.outputs.seenName?.value, up.outputs.seenRam?.value, up.outputs.seenMachine?.value]).toEqual(["imp-web", 2048, String(machine)]);
    expect(changed(up.summary.resourceChanges ?? {})).toEqual([]);
  }, 300_000);
});
