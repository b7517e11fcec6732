// Two sites served by one plugin process (two provider instances), whose
// machines carry the same keys: each instance's session keeps its own
// request budget and its own knowledge of machines, over real HTTPS.
import * as https from "node:https";
import { jsonRequest } from "../../emulator/client/jsonRequest";
import { type RunningEmulator, startEmulator } from "../../emulator/index";
import { VplatformProvider } from "../../provider/plugin/vplatformProvider";

const SCHEMA = { name: "vplatform", version: "1.2.3", resources: {} };
const urnOf = (type: string, name: string) => `urn:pulumi:dev::lab::vplatform:index:${type}::${name}`;

interface Site {
  emu: RunningEmulator;
  plugin: VplatformProvider;
  call(method: string, path: string, body?: unknown): Promise<any>;
}

async function startSite(settings: Record<string, string> = {}): Promise<Site> {
  const emu = await startEmulator({ port: 0, timeScale: 0.01, quiet: true });
  const plugin = new VplatformProvider(() => 0, { text: JSON.stringify(SCHEMA), schema: SCHEMA });
  plugin.configure({ endpoint: emu.url, apiKey: emu.apiKey, caCert: emu.caCert, ...settings });
  const agent = new https.Agent({ ca: emu.caCert });
  const call = async (method: string, path: string, body?: unknown) =>
    (await jsonRequest({ method, url: `${emu.url}${path}`, agent, body, headers: { authorization: `Bearer ${emu.apiKey}` } })).body;
  return { emu, plugin, call };
}

async function create(site: Site, type: string, name: string, news: Record<string, unknown>) {
  const checked = await site.plugin.check(urnOf(type, name), undefined, news);
  if (checked.failures?.length) throw new Error(`check failed: ${JSON.stringify(checked.failures)}`);
  return site.plugin.create(urnOf(type, name), checked.inputs);
}

let sites: Site[] = [];
afterEach(async () => {
  await Promise.all(sites.map((s) => s.emu.close()));
  sites = [];
});

describe("two sites in one plugin process never share what a session owns", () => {
  test("site A's spent request budget does not hold back site B", async () => {
    const budget = { requestBudget: "4", requestBudgetWindowSec: "3600" };
    sites = [await startSite(budget), await startSite(budget)];
    const [a, b] = sites;
    // Site A creates vnets until its budget is spent (what one create costs is not this test's business).
    let refusal: unknown;
    for (let n = 1; n <= 4 && refusal === undefined; n++)
      await create(a, "Vnet", `net-a${n}`, { name: `net-a${n}`, network: `10.${n}.0.0/24`, timeouts: { create: 2 } }).catch((e) => {
        refusal = e;
      });
    expect(String(refusal)).toMatch(/request budget/);
    const onB = await create(b, "Vnet", "net-b1", { name: "net-b1", network: "10.1.0.0/24", timeouts: { create: 2 } });
    expect(onB.id).toBeTruthy();
  }, 30_000);

  test("a machine key site A knows (it made the VM) is looked up afresh on site B, where the same key is another VM", async () => {
    sites = [await startSite(), await startSite()];
    const [a, b] = sites;
    const vmA = await create(a, "VirtualMachine", "web", { name: "web-a", cpuCores: 1, ram: 1024 });
    await b.call("POST", "/api/v4/vms", { name: "web-b", cpu_cores: 1, ram: 1024 });
    const [vmB] = await b.call("GET", "/api/v4/vms?fields=$key,machine");
    expect(String(vmB.machine)).toBe(String(vmA.outs!.machineKey));
    await b.call("DELETE", "/_emulator/requests");
    await create(b, "Drive", "os", { machine: String(vmB.machine), name: "os", disksize: 1024 ** 3, preferredTier: 3 });
    const seen: { entries: { method: string; table: string; count: number }[] } = await b.call("GET", "/_emulator/requests");
    expect(seen.entries.filter((e) => e.method === "GET" && e.table === "vms").length).toBeGreaterThan(0);
    const [drive] = await b.call("GET", `/api/v4/machine_drives?filter=name%20eq%20'os'&fields=machine`);
    expect(String(drive.machine)).toBe(String(vmB.machine));
  }, 30_000);
});
