// examples/yaml-lab: a Pulumi YAML program (pulumi-language-yaml) declaring a lab with the
// plugin's vplatform:index:* resources and a look-up, under the real engine; and that engine killed mid-up leaves
// no process of the plugin door (pulumi-resource-vplatform) behind.
import { spawn } from "node:child_process";
import * as path from "node:path";
import type { LocalWorkspace } from "@pulumi/pulumi/automation";
import { findRepoRoot } from "../../env/local-stack";
import { collect, startE2e, type E2eContext } from "./harness";
import { processesOfRun, RUN_MARKER } from "./processes";

const GiB = 1024 ** 3;
let ctx: E2eContext;
let machineKey = "";
const changed = (summary: Record<string, number | undefined>) => Object.keys(summary).filter((k) => k !== "same" && summary[k]);

beforeAll(async () => {
  ctx = await startE2e("yaml-lab", { projectDir: path.join(findRepoRoot(), "examples", "yaml-lab") });
}, 120_000);
afterAll(async () => ctx?.dispose());

describe("the Pulumi YAML example", () => {
  test("up creates the vnet, the running VM, its drive on the looked-up tier and its NIC", async () => {
    const up = await ctx.stack.up(collect(ctx));
    expect(up.outputs.status.value).toBe("running");
    machineKey = up.outputs.machineKey.value;
    const vm = (await ctx.api("GET", `/v4/vms/${up.outputs.vmKey.value}?fields=name,ram,machine%23status%23status%20as%20status`)).body;
    expect(vm).toMatchObject({ name: "yaml-web", ram: 2048, status: "running" });
    const drives = (await ctx.api("GET", `/v4/machine_drives?filter=machine%20eq%20${machineKey}&fields=name,disksize,preferred_tier`))
      .body;
    expect(drives).toEqual([expect.objectContaining({ name: "os", disksize: 20 * GiB })]);
    expect(String(drives[0].preferred_tier)).toBe("1");
    const nics = (await ctx.api("GET", `/v4/machine_nics?filter=machine%20eq%20${machineKey}&fields=name,vnet%23name%20as%20vnet`)).body;
    expect(nics).toEqual([expect.objectContaining({ name: "eth0", vnet: "yaml-lab" })]);
  }, 300_000);

  test("refresh and preview then report no changes", async () => {
    expect(changed((await ctx.stack.refresh(collect(ctx))).summary.resourceChanges ?? {})).toEqual([]);
    expect(changed((await ctx.stack.preview(collect(ctx))).changeSummary)).toEqual([]);
  }, 300_000);

  test("destroy removes everything it made", async () => {
    await ctx.stack.destroy(collect(ctx));
    expect((await ctx.api("GET", `/v4/vms?filter=name%20eq%20'yaml-web'&fields=name`)).body).toEqual([]);
    expect((await ctx.api("GET", `/v4/vnets?filter=name%20eq%20'yaml-lab'&fields=name`)).body).toEqual([]);
  }, 300_000);
});

describe("the engine killed mid-up leaves no plugin process behind (the plugin door)", () => {
  // The plugin's process: the installed pulumi-resource-vplatform execs node on the build's plugin/main.js.
  const PLUGIN = /pulumi-resource-vplatform|[\\/]plugin[\\/]main\.js/;
  const LANGUAGE_HOST = /[\\/]pulumi-language-yaml /;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  test("SIGKILL of the stock engine's process group once the plugin serves and a row is made: nothing of that run alive 10 s later", async () => {
    const ws = ctx.stack.workspace as LocalWorkspace;
    const marker = `yaml-killed-${process.pid}`;
    const engine = spawn(ws.pulumiCommand.command, ["up", "--yes", "--skip-preview", "--non-interactive", "--stack", ctx.stack.name], {
      cwd: ws.workDir,
      env: { ...process.env, ...(ws.pulumiHome ? { PULUMI_HOME: ws.pulumiHome } : {}), ...ws.envVars, [RUN_MARKER]: marker },
      detached: true,
      stdio: "ignore",
    });
    const exited = new Promise<void>((resolve) => engine.once("exit", () => resolve()));
    let ended = false;
    void exited.then(() => (ended = true));
    const made = async () =>
      (await ctx.api("GET", "/v4/vnets?filter=name%20eq%20'yaml-lab'&fields=name")).body.length +
      (await ctx.api("GET", "/v4/vms?filter=name%20eq%20'yaml-web'&fields=name")).body.length;
    const plugins = () => processesOfRun(marker).filter((p) => PLUGIN.test(p.cmd));
    while (!ended && !(plugins().length && (await made()))) await sleep(25);
    const serving = plugins();
    process.kill(-engine.pid!, "SIGKILL"); // throws when the run ended before: a kill mid-up is the point
    await exited;
    await sleep(10_000);
    const left = processesOfRun(marker);
    for (const p of left) process.kill(p.pid, "SIGKILL"); // none leaks into the next test file
    expect(serving).not.toEqual([]);
    // Pulumi's own YAML language host is no process of ours: it watches its engine with a 5-minute health check
    // (pulumi-yaml's cmd/pulumi-language-yaml), so it may still be there; nothing else of the run may.
    expect(left.filter((p) => !LANGUAGE_HOST.test(p.cmd))).toEqual([]);
  }, 120_000);
});
