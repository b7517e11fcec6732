// Under the real engine: credentials from the environment are stored nowhere (not even in
// `stack export --show-secrets`), stack-config credentials are where docs/reference/configuration.md says; and a
// sample of the fault matrix (a late answer and a reset after sending, on unnamed rows) ends
// with no orphan, no duplicate and a clean preview and refresh.
import * as fs from "node:fs";
import * as path from "node:path";
import type { LocalWorkspace, PulumiFn } from "@pulumi/pulumi/automation";
import { collect, startE2e, type E2eContext } from "./harness";

const program: PulumiFn = async () => {
  const vp = require("vplatform");
  const net = new vp.Vnet("net", { name: "cred-net", network: "10.61.0.0/24" });
  const vm = new vp.VirtualMachine("vm", { name: "cred-vm", ram: 1024, powerState: "stopped" });
  new vp.Nic("vm-nic", { machine: vm.machineKey, vnet: net.id });
  new vp.Drive("vm-disk", { machine: vm.machineKey, media: "disk", disksize: 1024 ** 3 });
  return { machineKey: vm.machineKey };
};

let ctx: E2eContext;
beforeAll(async () => {
  ctx = await startE2e("credentials", program);
  // The environment path: the key only in the engine's (and so the provider's) environment.
  await ctx.stack.removeConfig("vplatform:apiKey");
  (ctx.stack.workspace as LocalWorkspace).envVars.VPLATFORM_API_KEY = ctx.emulator.apiKey;
  await ctx.stack.setConfig("vplatform:requestTimeoutMs", { value: "1500" });
}, 120_000);
afterAll(async () => ctx?.dispose());

const rowsOf = async (table: string, machineKey: string) =>
  (await ctx.api("GET", `/v4/${table}?filter=machine%20eq%20${machineKey}&fields=$key`)).body as unknown[];
const storedFiles = (dir: string): string[] =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? storedFiles(path.join(dir, e.name)) : [path.join(dir, e.name)]));

describe("a late answer and a reset after sending, on unnamed rows, under the engine", () => {
  test("the up recovers both rows by their markers: one NIC, one drive, then preview and refresh clean", async () => {
    await ctx.fault({ method: "POST", table: "machine_nics", lateMs: 2_500, count: 1 });
    await ctx.fault({ method: "POST", table: "machine_drives", dropAfter: true, count: 1 });
    const up = await ctx.stack.up(collect(ctx));
    expect(up.summary.result).toBe("succeeded");
    const machineKey = up.outputs.machineKey.value;
    expect(await rowsOf("machine_nics", machineKey)).toHaveLength(1);
    expect(await rowsOf("machine_drives", machineKey)).toHaveLength(1);
    const preview = await ctx.stack.preview(collect(ctx));
    expect(Object.keys(preview.changeSummary).filter((k) => k !== "same")).toEqual([]);
    const refresh = await ctx.stack.refresh(collect(ctx));
    expect(Object.keys(refresh.summary.resourceChanges ?? {}).filter((k) => k !== "same")).toEqual([]);
  }, 300_000);
});

describe("credentials", () => {
  test("from the environment the API key is stored nowhere, not even in `stack export --show-secrets`", async () => {
    const exported = JSON.stringify(await ctx.stack.exportStack()); // the Automation API exports with --show-secrets
    expect(exported).toContain("cred-vm");
    expect(exported).not.toContain(ctx.emulator.apiKey);
    const stored = storedFiles(ctx.stateDir)
      .map((f) => fs.readFileSync(f, "utf8"))
      .join("\n");
    expect(stored).not.toContain(ctx.emulator.apiKey);
    expect(ctx.output.join("")).not.toContain(ctx.emulator.apiKey);
  }, 120_000);

  test("from stack config the key is stored encrypted, and `--show-secrets` shows it in the default provider's inputs (as docs/reference/configuration.md says)", async () => {
    await ctx.stack.setConfig("vplatform:apiKey", { value: ctx.emulator.apiKey, secret: true });
    (ctx.stack.workspace as LocalWorkspace).envVars.VPLATFORM_API_KEY = "";
    await ctx.stack.up(collect(ctx));
    const stored = storedFiles(ctx.stateDir)
      .map((f) => fs.readFileSync(f, "utf8"))
      .join("\n");
    expect(stored).not.toContain(ctx.emulator.apiKey);
    const exported = await ctx.stack.exportStack();
    const defaultProvider = (exported.deployment.resources as { type: string; inputs?: Record<string, unknown> }[]).find(
      (r) => r.type === "pulumi:providers:pulumi-nodejs",
    );
    expect(JSON.stringify(defaultProvider?.inputs ?? {})).toContain(ctx.emulator.apiKey);
  }, 300_000);

  test("destroy leaves nothing", async () => {
    await ctx.stack.destroy(collect(ctx));
    expect((await ctx.api("GET", "/v4/vms?filter=name%20bw%20'cred-'")).body).toEqual([]);
  }, 300_000);
});
