// The provider under the real Pulumi engine, following Pulumi's own lifecycle
// test: up, then preview/up/refresh each expecting no changes, then edits, then
// destroy — every check of the platform made through its API.
import * as fs from "node:fs";
import * as path from "node:path";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { collect, startE2e, type E2eContext } from "./harness";

const GiB = 1024 ** 3;
/** A secret input: it must reach the platform but never the state file or the output in plain text. */
const CONSOLE_HASH = "$6$e2e-console-hash-4f1c";
const desired = { ram: 2048, disksize: 10 * GiB, nics: 1 };

const program: PulumiFn = async () => {
  const vp = require("vplatform");
  const net = new vp.Vnet("net", {
    name: "e2e-net",
    network: "10.30.0.0/24",
    dhcpEnabled: true,
    dhcpStart: "10.30.0.10",
    dhcpStop: "10.30.0.50",
    powerState: "running", // a network passes traffic only while it runs
  });
  const vm = new vp.VirtualMachine("web", {
    name: "e2e-web",
    cpuCores: 2,
    ram: desired.ram,
    machineType: "q35",
    powerState: "running",
    powerCyclePolicy: "restart",
    consolePassHash: CONSOLE_HASH,
  });
  new vp.Drive("web-os", {
    machine: vm.machineKey,
    name: "os",
    media: "disk",
    interface: "virtio-scsi",
    disksize: desired.disksize,
    preferredTier: 3,
  });
  for (let i = 0; i < desired.nics; i++)
    new vp.Nic(`web-eth${i}`, { machine: vm.machineKey, name: `eth${i}`, vnet: net.id, interface: "virtio" });
  return { vmKey: vm.id, machineKey: vm.machineKey, vnetKey: net.id, vnetStatus: net.status };
};

let ctx: E2eContext;
let vmKey: string;
let machineKey: string;
let vnetKey: string;

const listFiles = (dir: string): string[] =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? listFiles(path.join(dir, e.name)) : [path.join(dir, e.name)]));

const onlySame = (summary: Record<string, number | undefined>) => Object.keys(summary).filter((k) => k !== "same" && summary[k]);

async function vnetStatus(): Promise<string> {
  return (await ctx.api("GET", `/v4/vnets/${vnetKey}?fields=machine%23status%23status%20as%20status`)).body.status;
}

async function vmRow() {
  const res = await ctx.api("GET", `/v4/vms/${vmKey}?fields=name,ram,cpu_cores,machine%23status%23status%20as%20status`);
  return res.body;
}

beforeAll(async () => {
  ctx = await startE2e("lifecycle", program);
}, 120_000);
afterAll(async () => ctx?.dispose());

describe("a stack under the real engine converges and stays converged", () => {
  test("up creates the vnet (running), the VM (running), its drive and its NIC", async () => {
    const up = await ctx.stack.up(collect(ctx));
    expect(up.summary.result).toBe("succeeded");
    vmKey = up.outputs.vmKey.value;
    machineKey = up.outputs.machineKey.value;
    vnetKey = up.outputs.vnetKey.value;
    expect(up.outputs.vnetStatus.value).toBe("running");
    expect(await vnetStatus()).toBe("running");
    expect(vmKey).not.toBe(machineKey);
    expect(await vmRow()).toMatchObject({ name: "e2e-web", ram: 2048, status: "running" });
    const drives = (await ctx.api("GET", `/v4/machine_drives?filter=machine%20eq%20${machineKey}&fields=name,disksize`)).body;
    expect(drives).toEqual([expect.objectContaining({ name: "os", disksize: 10 * GiB })]);
    const nics = (await ctx.api("GET", `/v4/machine_nics?filter=machine%20eq%20${machineKey}&fields=name,enabled`)).body;
    expect(nics).toEqual([expect.objectContaining({ name: "eth0", enabled: true })]);
  }, 300_000);

  test("preview after up reports no changes and sends no mutating request", async () => {
    await ctx.resetRequestCounts();
    const preview = await ctx.stack.preview(collect(ctx));
    expect(onlySame(preview.changeSummary)).toEqual([]);
    const counts = await ctx.requestCounts();
    expect(counts.entries.filter((e) => e.method !== "GET")).toEqual([]);
  }, 300_000);

  test("a second up and a refresh report no changes", async () => {
    const up = await ctx.stack.up(collect(ctx));
    expect(onlySame(up.summary.resourceChanges ?? {})).toEqual([]);
    const refresh = await ctx.stack.refresh(collect(ctx));
    expect(onlySame(refresh.summary.resourceChanges ?? {})).toEqual([]);
  }, 300_000);

  test("preview of a RAM change says the running VM will be restarted, and changes nothing", async () => {
    Object.assign(desired, { ram: 4096, disksize: 20 * GiB, nics: 2 });
    const preview = await ctx.stack.preview(collect(ctx));
    expect(preview.stdout).toMatch(/ram 2048 → 4096 needs a power cycle of VM 'e2e-web': the VM will be RESTARTED/);
    // The drive and the NIC stay: their VM keeps its machine (no replacement shown for an unknown machine key).
    // Same: the stack, the vnet, the first NIC and the VM's start step (it started the VM after its hardware).
    expect(preview.changeSummary).toEqual({ update: 2, create: 1, same: 4 });
    expect(await vmRow()).toMatchObject({ ram: 2048, status: "running" });
  }, 300_000);

  test("an edit grows the disk, restarts the running VM for a RAM change and adds a NIC", async () => {
    const up = await ctx.stack.up(collect(ctx));
    expect(up.summary.result).toBe("succeeded");
    expect(up.outputs.vmKey.value).toBe(vmKey); // updated in place, not replaced
    expect(await vmRow()).toMatchObject({ ram: 4096, status: "running" });
    const drives = (await ctx.api("GET", `/v4/machine_drives?filter=machine%20eq%20${machineKey}&fields=name,disksize`)).body;
    expect(drives).toEqual([expect.objectContaining({ name: "os", disksize: 20 * GiB })]);
    const nics = (await ctx.api("GET", `/v4/machine_nics?filter=machine%20eq%20${machineKey}&fields=name`)).body;
    expect(nics.map((n: { name: string }) => n.name).sort()).toEqual(["eth0", "eth1"]);
    const need = (await ctx.api("GET", `/v4/vms/${vmKey}?fields=need_restart`)).body;
    expect(need.need_restart).toBe(false);
  }, 300_000);

  test("drift made through the API shows in refresh and up puts it back", async () => {
    // Stop the VM behind Pulumi's back: desired power state is running.
    expect((await ctx.api("POST", "/v4/vm_actions", { vm: vmKey, action: "kill" })).status).toBeLessThan(300);
    await new Promise((r) => setTimeout(r, 200));
    const refresh = await ctx.stack.refresh(collect(ctx));
    expect(refresh.summary.resourceChanges?.update).toBe(1);
    const up = await ctx.stack.up(collect(ctx));
    expect(up.summary.resourceChanges?.update).toBe(1);
    expect(await vmRow()).toMatchObject({ status: "running" });
  }, 300_000);

  test("a network powered off outside shows as drift in refresh, and up starts it again with one poweron", async () => {
    expect((await ctx.api("POST", "/v4/vnet_actions", { vnet: vnetKey, action: "killpower" })).status).toBeLessThan(300);
    expect(await vnetStatus()).toBe("stopped");
    const refresh = await ctx.stack.refresh(collect(ctx));
    expect(refresh.summary.resourceChanges?.update).toBe(1);
    const preview = await ctx.stack.preview({ ...collect(ctx), diff: true });
    expect(preview.changeSummary).toMatchObject({ update: 1 });
    expect(preview.stdout).toMatch(/powerState.*"stopped" => "running"/);
    await ctx.resetRequestCounts();
    const up = await ctx.stack.up(collect(ctx));
    expect(up.summary.resourceChanges?.update).toBe(1);
    expect(await vnetStatus()).toBe("running");
    const actions = (await ctx.requestCounts()).entries.filter((e) => e.method !== "GET");
    expect(actions).toEqual([expect.objectContaining({ method: "POST", table: "vnet_actions", count: 1 })]);
    const again = await ctx.stack.preview({ ...collect(ctx), refresh: true });
    expect(onlySame(again.changeSummary)).toEqual([]);
  }, 300_000);

  test("the API key and the secret console hash are in neither the state file nor the engine's output", async () => {
    // The state file as the backend stores it (exportStack would decrypt secrets).
    const files = listFiles(ctx.stateDir).filter((f) => f.endsWith(".json"));
    const state = files.map((f) => fs.readFileSync(f, "utf8")).join("\n");
    expect(state).toContain("vplatform:VirtualMachine");
    expect(state).not.toContain(ctx.emulator.apiKey);
    expect(ctx.output.join("")).not.toContain(ctx.emulator.apiKey);
    // After up, refresh and updates: encrypted in inputs and outputs alike, yet set on the platform.
    expect(state).not.toContain(CONSOLE_HASH);
    expect(ctx.output.join("")).not.toContain(CONSOLE_HASH);
    expect((await ctx.api("GET", `/v4/vms/${vmKey}?fields=console_pass_hash`)).body.console_pass_hash).toBe(CONSOLE_HASH);
    // The serialized provider holds no configuration at all: only the module to load at call time.
    const provider = JSON.parse(fs.readFileSync(files.find((f) => /e2e\.json$/.test(f))!, "utf8")).checkpoint.latest.resources.find(
      (r: { type: string }) => r.type === "pulumi-nodejs:dynamic/vplatform:VirtualMachine",
    ).inputs.__provider as string;
    expect(provider).toContain("vplatform/provider/");
    expect(provider).not.toMatch(/endpoint|apiKey|BEGIN CERTIFICATE/);
  }, 60_000);

  test("destroy removes every row it created (the running network powered off first)", async () => {
    const destroy = await ctx.stack.destroy(collect(ctx));
    expect(destroy.summary.result).toBe("succeeded");
    expect((await ctx.api("GET", `/v4/vms/${vmKey}`)).status).toBe(404);
    const leftovers = await Promise.all(
      ["machine_drives", "machine_nics"].map(async (t) => (await ctx.api("GET", `/v4/${t}?filter=machine%20eq%20${machineKey}`)).body),
    );
    expect(leftovers).toEqual([[], []]);
    expect((await ctx.api("GET", "/v4/vnets?filter=name%20eq%20'e2e-net'")).body).toEqual([]);
  }, 300_000);
});
