// A TypeScript program on the plugin's generated Node.js SDK (scripts/gen-sdk.sh, run by the set-up: `pulumi package
// gen-sdk` through our language host's GeneratePackage, compiled): two explicit vplatform.Providers
// pointed at two emulators in one program, resources and look-ups on each.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import got from "got";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { findRepoRoot } from "../../env/local-stack";
import { collect, startE2e, type E2eContext } from "./harness";
import { setUpSdk } from "./setUpSdks";

const root = findRepoRoot();
let sdkDir: string;
let sites: RunningEmulator[] = [];
let ctx: E2eContext;

const program: PulumiFn = async () => {
  const vplatform = require(path.join(sdkDir, "nodejs", "bin"));
  const [a, b] = sites.map((s, i) => new vplatform.Provider(`site-${"ab"[i]}`, { endpoint: s.url, apiKey: s.apiKey, caCert: s.caCert }));
  const out: Record<string, unknown> = {};
  for (const [site, provider] of [
    ["a", a],
    ["b", b],
  ] as const) {
    const tier = vplatform.getStorageTierOutput({ name: "Tier 2" }, { provider });
    const vm = new vplatform.VirtualMachine(
      `web-${site}`,
      { name: `sdk-web-${site}`, cpuCores: 1, ram: 1024, powerState: "running" },
      { provider },
    );
    new vplatform.Drive(
      `web-${site}-os`,
      { machine: vm.machineKey, name: "os", media: "disk", interface: "virtio-scsi", disksize: 5 * 1024 ** 3, preferredTier: tier.tier },
      { provider },
    );
    out[`machine_${site}`] = vm.machineKey;
    out[`status_${site}`] = vm.status;
  }
  return out;
};

async function siteRows(site: RunningEmulator, query: string) {
  const auth = `Basic ${Buffer.from(`${site.adminUser}:${site.adminPassword}`).toString("base64")}`;
  return got(`${site.url}/api/v4/${query}`, { headers: { authorization: auth }, https: { certificateAuthority: site.caCert } }).json<
    Record<string, unknown>[]
  >();
}

beforeAll(async () => {
  // A copy of the set-up's compiled SDK, beside a node_modules: it resolves @pulumi/pulumi as a program depending on
  // it would (the set-up's is shared).
  sdkDir = fs.mkdtempSync(path.join(os.tmpdir(), "vplatform-generated-sdk-"));
  fs.cpSync(path.join(setUpSdk(), "nodejs", "bin"), path.join(sdkDir, "nodejs", "bin"), { recursive: true });
  fs.symlinkSync(path.join(root, "node_modules"), path.join(sdkDir, "node_modules"), "dir");
  sites = await Promise.all([0, 1].map(() => startEmulator({ port: 0, timeScale: 0.01, quiet: true })));
  ctx = await startE2e("generated-sdk", program);
}, 300_000);
afterAll(async () => {
  await ctx?.dispose();
  await Promise.all(sites.map((s) => s.close()));
  fs.rmSync(sdkDir, { recursive: true, force: true });
});

describe("the generated SDK with two explicit providers", () => {
  test("up creates a running VM and its drive on each site, through its own provider", async () => {
    const up = await ctx.stack.up(collect(ctx));
    expect([up.outputs.status_a.value, up.outputs.status_b.value]).toEqual(["running", "running"]);
    for (const [i, site] of (["a", "b"] as const).entries()) {
      const vms = await siteRows(sites[i], "vms?filter=is_snapshot%20eq%20false&fields=name");
      expect(vms.map((r) => r.name)).toEqual([`sdk-web-${site}`]);
      const drives = await siteRows(
        sites[i],
        `machine_drives?filter=machine%20eq%20${up.outputs[`machine_${site}`].value}&fields=name,preferred_tier`,
      );
      expect(drives.map((d) => [d.name, String(d.preferred_tier)])).toEqual([["os", "2"]]);
    }
  }, 300_000);

  test("preview reports no changes, and destroy empties both sites", async () => {
    const preview = await ctx.stack.preview(collect(ctx));
    expect(Object.keys(preview.changeSummary).filter((k) => k !== "same")).toEqual([]);
    await ctx.stack.destroy(collect(ctx));
    for (const site of sites) expect(await siteRows(site, "vms?filter=is_snapshot%20eq%20false&fields=name")).toEqual([]);
  }, 300_000);
});
