// examples/yaml-lab: a Pulumi YAML program (pulumi-language-yaml) declaring a lab with the
// plugin's vplatform:index:* resources and a look-up, under the real engine.
import * as path from "node:path";
import { findRepoRoot } from "../../env/local-stack";
import { collect, startE2e, type E2eContext } from "./harness";

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
