// customTimeouts reach the plugin's waits and beat the `timeouts` input.
import got from "got";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { collect, startE2e, type E2eContext } from "./harness";
import { Site, resource } from "./pluginResources";

const CUSTOM_CREATE_SECONDS = 4;
let ctx: E2eContext;
/** A site whose VMs take minutes to start (time scale 60: a 2 s start becomes 120 s). */
let slowSite: RunningEmulator;

const program: PulumiFn = async () => {
  const site = new Site("slow", { endpoint: slowSite.url, apiKey: slowSite.apiKey, caCert: slowSite.caCert });
  resource(
    "VirtualMachine",
    "slow",
    { name: "slow-start", cpuCores: 1, ram: 1024, powerState: "running", timeouts: { powerChange: 600 } },
    { provider: site, customTimeouts: { create: `${CUSTOM_CREATE_SECONDS}s` } },
  );
};

beforeAll(async () => {
  slowSite = await startEmulator({ port: 0, timeScale: 60, quiet: true });
  ctx = await startE2e("plugin-timeouts", program);
}, 120_000);
afterAll(async () => {
  await ctx?.dispose();
  await slowSite?.close();
});

describe("customTimeouts", () => {
  test("a power-on that stalls fails at customTimeouts.create, naming it, although timeouts.powerChange allows 600 s", async () => {
    const started = Date.now();
    const err = await ctx.stack.up(collect(ctx)).then(
      () => undefined,
      (e: Error) => e,
    );
    const seconds = (Date.now() - started) / 1000;
    // The wait's progress is shown on the resource, as the dynamic provider's is.
    expect(ctx.output.join("")).toMatch(
      /vplatform:index:VirtualMachine slow creating \(\d+s\) vplatform: waiting for VM 'slow-start' to reach running/,
    );
    expect(String(err)).toMatch(
      new RegExp(
        `customTimeouts\\.create \\(${CUSTOM_CREATE_SECONDS}s\\) ran out after \\d+s waiting for VM 'slow-start' to reach running`,
      ),
    );
    // The engine's own start-up and the rollback of the VM come on top of the limit.
    expect(seconds).toBeGreaterThanOrEqual(CUSTOM_CREATE_SECONDS);
    expect(seconds).toBeLessThan(CUSTOM_CREATE_SECONDS + 30);
    // No orphan: a VM left on the site (it cannot be deleted while starting) is recorded in the state, partially created.
    const auth = `Basic ${Buffer.from(`${slowSite.adminUser}:${slowSite.adminPassword}`).toString("base64")}`;
    const rows = await got(`${slowSite.url}/api/v4/vms?fields=$key`, {
      headers: { authorization: auth },
      https: { certificateAuthority: slowSite.caCert },
    }).json<{ $key: number }[]>();
    const state = await ctx.stack.exportStack();
    const recorded = (state.deployment.resources ?? []).filter((r: { type: string }) => r.type === "vplatform:index:VirtualMachine");
    expect(recorded.map((r: { id: string }) => r.id)).toEqual(rows.map((r) => String(r.$key)));
  }, 300_000);
});
