// Discovery of the resource plugin through its plugin directory (plugin/PulumiPlugin.yaml, runtime
// nodejs), named in Pulumi.yaml's `plugins: providers:`: the engine runs it through our Node.js language
// host's RunPlugin. The engine here sees no pulumi-resource-vplatform on PATH nor in its plugin cache, so only
// the directory can serve it.
import * as fs from "node:fs";
import * as path from "node:path";
import type { LocalWorkspace } from "@pulumi/pulumi/automation";
import { findRepoRoot } from "../../env/local-stack";
import { markerTag, stableMarker } from "../../provider/reconcile/createMarker";
import { collect, startE2e, type E2eContext, e2eWorkDir } from "./harness";

const root = findRepoRoot();
const PLUGIN = "pulumi-resource-vplatform";
const RESOURCES =
  "resources:\n  net:\n    type: vplatform:index:Vnet\n    properties:\n      name: folder-net\n      network: 10.70.0.0/24\noutputs:\n  netKey: ${net.id}\n";
const pluginsSection = `plugins:\n  providers:\n    - name: vplatform\n      path: ${path.join(root, "plugin")}\n`;

let ctx: E2eContext;
let work: string;
let projectDir: string;
const savedRoot = process.env.VPLATFORM_PULUMI_ROOT;
const writeProject = (plugins: string) =>
  fs.writeFileSync(path.join(projectDir, "Pulumi.yaml"), `name: plugin-folder\nruntime: yaml\n${plugins}${RESOURCES}`);

beforeAll(async () => {
  work = e2eWorkDir("plugin-folder-");
  // The CLI with only its bundled plugins (language hosts, the dynamic-provider launcher) beside it.
  const engineDir = path.dirname(fs.realpathSync(path.join(root, ".tools", "pulumi", "bin", "pulumi")));
  expect(fs.existsSync(path.join(engineDir, PLUGIN))).toBe(false);
  fs.mkdirSync(path.join(work, "engine"));
  fs.symlinkSync(engineDir, path.join(work, "engine", "bin"));
  process.env.VPLATFORM_PULUMI_ROOT = path.join(work, "engine");
  projectDir = path.join(work, "project");
  fs.mkdirSync(projectDir);
  writeProject(pluginsSection);
  ctx = await startE2e("plugin-folder", { projectDir });
  const ws = ctx.stack.workspace as LocalWorkspace;
  ws.envVars.PATH = (process.env.PATH ?? "")
    .split(path.delimiter)
    .filter((dir) => dir && !fs.existsSync(path.join(dir, PLUGIN)))
    .join(path.delimiter);
  ws.envVars.PULUMI_HOME = path.join(work, "home"); // no plugin cache (the set-up installs ours in its own)
}, 120_000);
afterAll(async () => {
  await ctx?.dispose();
  if (savedRoot === undefined) delete process.env.VPLATFORM_PULUMI_ROOT;
  else process.env.VPLATFORM_PULUMI_ROOT = savedRoot;
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

describe("the plugin found through its PulumiPlugin.yaml directory", () => {
  test("without the directory in Pulumi.yaml, the engine finds no plugin (none on PATH or in the plugin cache)", async () => {
    writeProject("");
    await expect(ctx.stack.preview(collect(ctx))).rejects.toThrow(/no resource plugin 'pulumi-resource-vplatform' found/);
  }, 120_000);

  test("named in Pulumi.yaml's plugins, it is run by the Node.js language host and serves up and destroy", async () => {
    writeProject(pluginsSection);
    const up = await ctx.stack.up(collect(ctx));
    const row = (await ctx.api("GET", `/v4/vnets/${up.outputs.netKey.value}?fields=name,network,description`)).body;
    expect(row).toMatchObject({ name: "folder-net", network: "10.70.0.0/24" });
    // A YAML program passes no create marker: the plugin derives it from the URN (stable across runs).
    expect(row.description).toBe(markerTag(stableMarker(`urn:pulumi:${ctx.stack.name}::plugin-folder::vplatform:index:Vnet::net`)));
    expect(up.stdout + up.stderr).not.toMatch(/using pulumi-resource-vplatform from \$PATH/);
    await ctx.stack.destroy(collect(ctx));
    expect((await ctx.api("GET", `/v4/vnets?filter=name%20eq%20'folder-net'&fields=name`)).body).toEqual([]);
  }, 300_000);
});
