// The resource plugin under the real engine: the default provider (stack config)
// and an explicit provider for a second platform site, in one program.
import got from "got";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { collect, startE2e, type E2eContext } from "./harness";
import { Site, resource } from "./pluginResources";

const GiB = 1024 ** 3;
let ctx: E2eContext;
let siteB: RunningEmulator;

const program: PulumiFn = async () => {
  const net = resource("Vnet", "net", { name: "plug-net", network: "10.40.0.0/24" });
  const vm = resource("VirtualMachine", "web", { name: "plug-web", cpuCores: 2, ram: 2048, powerState: "running" });
  resource("Drive", "web-os", { machine: vm.machineKey, name: "os", media: "disk", interface: "virtio-scsi", disksize: 10 * GiB });
  const b = new Site("site-b", { endpoint: siteB.url, apiKey: siteB.apiKey, caCert: siteB.caCert });
  const far = resource("VirtualMachine", "far", { name: "plug-far", cpuCores: 1, ram: 1024 }, { provider: b });
  return { netKey: net.id, vmKey: vm.id, machineKey: vm.machineKey, farKey: far.id };
};

const changed = (summary: Record<string, number | undefined>) => Object.keys(summary).filter((k) => k !== "same" && summary[k]);

async function siteBVmNames(): Promise<string[]> {
  const auth = "Basic " + Buffer.from(`${siteB.adminUser}:${siteB.adminPassword}`).toString("base64");
  const rows = await got(`${siteB.url}/api/v4/vms?filter=is_snapshot%20eq%20false&fields=name`, { headers: { authorization: auth }, https: { certificateAuthority: siteB.caCert } }).json<{ name: string }[]>();
  return rows.map((r) => r.name);
}

beforeAll(async () => {
  siteB = await startEmulator({ port: 0, timeScale: 0.01, quiet: true });
  ctx = await startE2e("plugin", program);
}, 120_000);
afterAll(async () => {
  await ctx?.dispose();
  await siteB?.close();
});

describe("the plugin serves schema.json's resources under the engine", () => {
  test("up creates the vnet, the running VM and its drive on site A, and a VM on site B through an explicit provider", async () => {
    const up = await ctx.stack.up(collect(ctx));
    expect(up.summary.result).toBe("succeeded");
    const { vmKey, machineKey, netKey } = Object.fromEntries(Object.entries(up.outputs).map(([k, v]) => [k, v.value]));
    expect((await ctx.api("GET", `/v4/vnets/${netKey}?fields=name,network`)).body).toMatchObject({ name: "plug-net", network: "10.40.0.0/24" });
    expect((await ctx.api("GET", `/v4/vms/${vmKey}?fields=name,machine%23status%23status%20as%20status`)).body).toMatchObject({ name: "plug-web", status: "running" });
    const drives = (await ctx.api("GET", `/v4/machine_drives?filter=machine%20eq%20${machineKey}&fields=name,disksize`)).body;
    expect(drives).toEqual([expect.objectContaining({ name: "os", disksize: 10 * GiB })]);
    const aVms = (await ctx.api("GET", `/v4/vms?filter=is_snapshot%20eq%20false&fields=name`)).body.map((r: { name: string }) => r.name);
    expect(aVms).toEqual(["plug-web"]);
    const bVms = await siteBVmNames();
    expect(bVms).toEqual(["plug-far"]);
    expect(up.stdout).toMatch(/vplatform:index:VirtualMachine/);
  }, 300_000);

  test("preview and refresh after up report no changes", async () => {
    const preview = await ctx.stack.preview(collect(ctx));
    expect(changed(preview.changeSummary)).toEqual([]);
    const refresh = await ctx.stack.refresh(collect(ctx));
    expect(changed(refresh.summary.resourceChanges ?? {})).toEqual([]);
  }, 300_000);

  test("destroy removes every row on both sites", async () => {
    await ctx.stack.destroy(collect(ctx));
    expect((await ctx.api("GET", `/v4/vms?filter=is_snapshot%20eq%20false&fields=name`)).body).toEqual([]);
    expect((await ctx.api("GET", `/v4/vnets?filter=name%20eq%20'plug-net'&fields=name`)).body).toEqual([]);
    expect(await siteBVmNames()).toEqual([]);
  }, 300_000);
});
