// One SDK: `import * as vp from "vplatform"` gives `vp.Provider`, and its classes and look-ups take `{ provider }`.
// A program makes a user and its API key, configures a provider with the key's secret (an output of the same
// program) and makes a vnet and a VM through it, and looks the vnet up through it: the emulator's counter shows
// those requests made with the new key, and the rest with the stack's. No workaround class, no second SDK, no
// `plugins:` entry. Refresh and destroy run on the settings recorded with the provider.
// Then `pulumi import` of a VM made outside Pulumi prints code on the same `vplatform`, which, pasted into
// the program, previews with no change; an import through the vp.Provider fails in Pulumi's own host, as the
// TypeScript guide says.
import * as fs from "node:fs";
import * as path from "node:path";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import ts from "typescript";
import { findRepoRoot } from "../../env/local-stack";
import { collect, startE2e, storedState, type E2eContext } from "./harness";

const PASSWORD = "e2e-site-pw-5c19";
let ctx: E2eContext;
let secret: string;
/** Code `pulumi import` printed, pasted at the end of the program (run as the program runs its own code). */
let pasted = "";

const runPasted = () => {
  const js = ts.transpileModule(pasted, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } });
  new Function("require", "exports", js.outputText)(require, {});
};

const program: PulumiFn = async () => {
  const vp = require("vplatform");
  const ci = new vp.User("ci", { name: "site-ci", role: "admin", password: PASSWORD });
  const key = new vp.ApiKey("ci-key", { user: ci.id, name: "site-ci-key" });
  const site = new vp.Provider("as-ci", { endpoint: ctx.emulator.url, caCert: ctx.emulator.caCert, apiKey: key.secret });
  const net = new vp.Vnet("net", { name: "site-net", network: "10.97.0.0/24" }, { provider: site });
  const vm = new vp.VirtualMachine("vm", { name: "site-vm", cpuCores: 1, ram: 1024 }, { provider: site });
  new vp.Nic("vm-eth0", { machine: vm.machineKey, vnet: net.id }, { provider: site });
  const found = vp.getVnetOutput({ name: net.name }, { provider: site });
  if (pasted) runPasted();
  return { secret: key.secret, vnetKey: net.id, vmKey: vm.id, foundKey: found.id };
};

beforeAll(async () => {
  ctx = await startE2e("site-provider", program);
}, 120_000);
afterAll(async () => ctx?.dispose());

describe("a provider configured in the program makes resources and reads look-ups on its own site", () => {
  test("preview plans it all while the key's secret is not known yet, sending nothing", async () => {
    await ctx.resetRequestCounts();
    const preview = await ctx.stack.preview(collect(ctx));
    expect(preview.changeSummary).toMatchObject({ create: 7 }); // stack, user, key, provider, vnet, VM, NIC
    const counts = await ctx.requestCounts();
    expect(counts.entries.filter((e: { method: string }) => e.method !== "GET")).toEqual([]);
  }, 300_000);

  test("up: the vnet, the VM and its NIC are made with the program's new key, and the look-up reads with it", async () => {
    await ctx.resetRequestCounts();
    const up = await ctx.stack.up(collect(ctx));
    expect(up.summary.result).toBe("succeeded");
    expect(up.outputs.foundKey.value).toBe(up.outputs.vnetKey.value);
    // The site's key is a secret; what a look-up on the site answers is not (it showed as [secret]).
    expect({ found: up.outputs.foundKey.secret, key: up.outputs.secret.secret }).toEqual({ found: false, key: true });
    secret = up.outputs.secret.value;
    const counts = await ctx.requestCounts();
    const withNewKey = counts.entries.filter((e: { key: string }) => e.key === "site-ci-key");
    const tables = (method: string) =>
      withNewKey.filter((e: { method: string }) => e.method === method).map((e: { table: string }) => e.table);
    expect(tables("POST")).toEqual(expect.arrayContaining(["vnets", "vms", "machine_nics"]));
    expect(tables("GET")).toContain("vnets"); // the look-up
    // The user and the key themselves are made with the stack's key, never with the new one.
    const others = counts.entries.filter((e: { key: string }) => e.key !== "site-ci-key");
    expect(others.filter((e: { method: string }) => e.method === "POST").map((e: { table: string }) => e.table)).toEqual(
      expect.arrayContaining(["users", "user_api_keys"]),
    );
    expect(others.some((e: { table: string }) => ["vnets", "vms", "machine_nics"].includes(e.table) && e.key !== "site-ci-key")).toBe(
      false,
    );
    const vm = (await ctx.api("GET", `/v4/vms/${up.outputs.vmKey.value}?fields=name`)).body;
    expect(vm).toMatchObject({ name: "site-vm" });
  }, 300_000);

  test("the key's secret is never in plain text in state; preview and refresh see no change", async () => {
    const state = storedState(ctx);
    expect(state).toContain("pulumi:providers:pulumi-nodejs");
    expect(secret.length).toBeGreaterThan(10);
    expect(state).not.toContain(secret);
    expect(state).not.toContain(PASSWORD);
    expect((await ctx.stack.preview(collect(ctx))).changeSummary).toEqual({ same: expect.any(Number) });
    const refresh = await ctx.stack.refresh(collect(ctx));
    expect(refresh.summary.resourceChanges).not.toHaveProperty("update");
  }, 300_000);

  test("pulumi import of a VM prints code on `vplatform` that, pasted into this program, previews with no change", async () => {
    const made = await ctx.api("POST", "/v4/vms", { name: "site-imported", cpu_cores: 1, ram: 1024 });
    const imported = await ctx.stack.import({
      resources: [{ type: "vplatform:index:VirtualMachine", name: "imported", id: String(made.body.$key) }],
      protect: false,
      ...collect(ctx),
    });
    expect(imported.summary.result).toBe("succeeded");
    pasted = imported.generatedCode;
    expect(pasted).toMatch(/^import \* as vplatform from "vplatform";$/m);
    expect(pasted).toMatch(/^const imported = new vplatform\.VirtualMachine\("imported", \{$/m);
    const preview = await ctx.stack.preview({ ...collect(ctx), diff: true });
    expect({ changes: preview.changeSummary, diff: preview.stdout }).toEqual({
      changes: { same: expect.any(Number) },
      diff: expect.not.stringMatching(/^\s+[~+-] /m),
    });
  }, 300_000);

  test("pulumi import through a vp.Provider fails in Pulumi's own dynamic-resource host, with the words the TypeScript guide quotes beside the way that works", async () => {
    const made = await ctx.api("POST", "/v4/vms", { name: "site-not-imported", cpu_cores: 1, ram: 1024 });
    const { deployment } = await ctx.stack.exportStack();
    const site = (deployment.resources as { type: string; urn: string }[]).find(
      (r) => r.type === "pulumi:providers:pulumi-nodejs" && r.urn.endsWith("::as-ci"),
    );
    const failed = await ctx.stack
      .import({
        resources: [{ type: "vplatform:index:VirtualMachine", name: "notImported", id: String(made.body.$key), provider: "asCi" }],
        nameTable: { asCi: site!.urn },
        protect: false,
        ...collect(ctx),
      })
      .then(
        () => "imported",
        (e: Error) => e.message,
      );
    await ctx.api("DELETE", `/v4/vms/${made.body.$key}`);
    // The failed import left nothing in the state (the destroy below would try the same host on it).
    const after = (await ctx.stack.exportStack()).deployment;
    expect((after.resources as { urn: string }[]).filter((r) => r.urn.endsWith("::notImported"))).toEqual([]);
    expect(after.pending_operations ?? []).toEqual([]);
    // Pulumi's host reads a row through the provider code its state carries; an import has none: no vplatform code runs.
    const hostWords = "Cannot read properties of undefined (reading 'toJavaScript')";
    expect(failed).toContain(hostWords);
    expect(failed).toMatch(/at ResourceProviderService\.read \(.*dynamic-provider/);
    const guide = fs.readFileSync(path.join(findRepoRoot(), "docs", "guides", "typescript.md"), "utf8").replace(/\s+/g, " ");
    expect(guide).toContain("`--provider <name>=<its urn>`), not through a `vp.Provider`");
    expect(guide).toContain(`\`${hostWords}\``);
  }, 300_000);

  test("destroy removes what the provider made, with the settings recorded with it", async () => {
    const before = (await ctx.stack.outputs()).vmKey.value;
    const destroy = await ctx.stack.destroy(collect(ctx));
    expect(destroy.summary.result).toBe("succeeded");
    expect((await ctx.api("GET", `/v4/vms/${before}?fields=name`)).status).toBe(404);
  }, 300_000);
});
