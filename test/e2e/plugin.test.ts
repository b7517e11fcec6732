// The resource plugin under the real engine: the default provider (stack config)
// and an explicit provider for a second platform site, in one program.
import * as fs from "node:fs";
import * as path from "node:path";
import got from "got";
import * as pulumi from "@pulumi/pulumi";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { findRepoRoot } from "../../env/local-stack";
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
  // Look-ups are functions of the plugin: through the default provider and through site B's.
  const tier = await pulumi.runtime.invoke("vplatform:index:getStorageTier", { name: "Tier 3" });
  const cluster = await pulumi.runtime.invoke("vplatform:index:getCluster", { name: "cluster1" }, { provider: b });
  const missing = await pulumi.runtime.invoke("vplatform:index:getVnet", { name: "no-such-net" }).then(
    () => "found",
    (e: Error) => e.message,
  );
  return { netKey: net.id, vmKey: vm.id, machineKey: vm.machineKey, farKey: far.id, tier, cluster, missing };
};

const changed = (summary: Record<string, number | undefined>) => Object.keys(summary).filter((k) => k !== "same" && summary[k]);

async function siteBVmNames(): Promise<string[]> {
  const auth = `Basic ${Buffer.from(`${siteB.adminUser}:${siteB.adminPassword}`).toString("base64")}`;
  const rows = await got(`${siteB.url}/api/v4/vms?filter=is_snapshot%20eq%20false&fields=name`, {
    headers: { authorization: auth },
    https: { certificateAuthority: siteB.caCert },
  }).json<{ name: string }[]>();
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
    expect((await ctx.api("GET", `/v4/vnets/${netKey}?fields=name,network`)).body).toMatchObject({
      name: "plug-net",
      network: "10.40.0.0/24",
    });
    expect((await ctx.api("GET", `/v4/vms/${vmKey}?fields=name,machine%23status%23status%20as%20status`)).body).toMatchObject({
      name: "plug-web",
      status: "running",
    });
    const drives = (await ctx.api("GET", `/v4/machine_drives?filter=machine%20eq%20${machineKey}&fields=name,disksize`)).body;
    expect(drives).toEqual([expect.objectContaining({ name: "os", disksize: 10 * GiB })]);
    const aVms = (await ctx.api("GET", `/v4/vms?filter=is_snapshot%20eq%20false&fields=name`)).body.map((r: { name: string }) => r.name);
    expect(aVms).toEqual(["plug-web"]);
    const bVms = await siteBVmNames();
    expect(bVms).toEqual(["plug-far"]);
    expect(up.stdout).toMatch(/vplatform:index:VirtualMachine/);
    // The set-up installs the plugin in the plugin cache, not on PATH, where the engine warns about it.
    expect(up.stdout + up.stderr).not.toMatch(/using pulumi-resource-vplatform from \$PATH/);
    expect(up.outputs.tier.value).toEqual({ id: "3", name: "Tier 3", tier: 3 });
    expect(up.outputs.cluster.value).toEqual({ id: "1", name: "cluster1" });
    expect(up.outputs.missing.value).toMatch(/getVnet: no vnet named 'no-such-net'/);
  }, 300_000);

  test("every property the plugin recorded is one schema.json declares, and every property it requires is recorded", async () => {
    const schema = JSON.parse(fs.readFileSync(path.join(findRepoRoot(), "schema.json"), "utf8"));
    const state = await ctx.stack.exportStack();
    const recorded = state.deployment.resources.filter((r: { type: string }) => r.type.startsWith("vplatform:index:"));
    expect(recorded.map((r: { type: string }) => r.type).sort()).toEqual([
      "vplatform:index:Drive",
      "vplatform:index:VirtualMachine",
      "vplatform:index:VirtualMachine",
      "vplatform:index:Vnet",
    ]);
    for (const r of recorded) {
      const declared = schema.resources[r.type];
      expect({ type: r.type, undeclared: Object.keys(r.outputs).filter((k) => !(k in declared.properties)) }).toEqual({
        type: r.type,
        undeclared: [],
      });
      expect({ type: r.type, missing: declared.required.filter((k: string) => !(k in r.outputs)) }).toEqual({ type: r.type, missing: [] });
      expect({ type: r.type, undeclaredInputs: Object.keys(r.inputs).filter((k) => !(k in declared.inputProperties)) }).toEqual({
        type: r.type,
        undeclaredInputs: [],
      });
    }
  });

  test("the explicit provider's API key is stored encrypted: never in plain text in the state or the engine's output", async () => {
    const files = (dir: string): string[] =>
      fs
        .readdirSync(dir, { withFileTypes: true })
        .flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)]));
    const stored = files(ctx.stateDir)
      .map((f) => fs.readFileSync(f, "utf8"))
      .join("\n");
    expect(stored).toContain("pulumi:providers:vplatform");
    expect(stored).not.toContain(siteB.apiKey);
    expect(ctx.output.join("")).not.toContain(siteB.apiKey);
  });

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
