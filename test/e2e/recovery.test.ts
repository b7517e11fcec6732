// Failure and take-over paths under the real engine: an `up` interrupted by
// platform errors converges on the next `up` with no orphans or duplicates,
// and an existing VM is adopted instead of duplicated.
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { collect, startE2e, type E2eContext } from "./harness";

const GiB = 1024 ** 3;
let withLegacy = false;
let adopt = false;

const program: PulumiFn = async () => {
  const vp = require("vplatform");
  const vm = new vp.VirtualMachine("app", { name: "e2e-app", cpuCores: 1, ram: 1024, powerState: "stopped" });
  for (const name of ["os", "data"])
    new vp.Drive(`app-${name}`, {
      machine: vm.machineKey,
      name,
      media: "disk",
      interface: "virtio-scsi",
      disksize: 5 * GiB,
      preferredTier: 2,
    });
  const legacy = withLegacy ? new vp.VirtualMachine("legacy", { name: "e2e-legacy", cpuCores: 2, ram: 2048, adopt }) : undefined;
  return { appKey: vm.id, machineKey: vm.machineKey, legacyKey: legacy?.id };
};

let ctx: E2eContext;
beforeAll(async () => {
  ctx = await startE2e("recovery", program);
}, 120_000);
afterAll(async () => ctx?.dispose());

let legacyKey: string;
const count = async (apiPath: string) => ((await ctx.api("GET", apiPath)).body as unknown[]).length;

describe("an interrupted up converges on the next up", () => {
  test("a platform error mid-way fails the up; the next up finishes with no orphan or duplicate", async () => {
    // A drive creation is refused for good (507: out of storage; a 500 would be looked up and sent again).
    await ctx.fault({ method: "POST", table: "machine_drives", status: 507, count: 1 });
    const failed = await ctx.stack.up(collect(ctx)).catch((e: Error) => e);
    expect(failed).toBeInstanceOf(Error);
    expect(String((failed as Error).message)).toMatch(/creating Drive '(os|data)': POST \/v4\/machine_drives: 507.*Next: .*free space/);

    const up = await ctx.stack.up(collect(ctx));
    expect(up.summary.result).toBe("succeeded");
    expect(await count("/v4/vms?filter=name%20eq%20'e2e-app'")).toBe(1);
    expect(await count(`/v4/machine_drives?filter=machine%20eq%20${up.outputs.machineKey.value}`)).toBe(2);
  }, 300_000);
});

describe("an existing VM is adopted, never duplicated", () => {
  test("a VM of the same name made outside Pulumi is refused at preview (nothing sent), with a hint to adopt it", async () => {
    const created = await ctx.api("POST", "/v4/vms", { name: "e2e-legacy", cpu_cores: 2, ram: 2048 });
    expect(created.status).toBe(201);
    legacyKey = created.body.$key;
    withLegacy = true;
    await ctx.resetRequestCounts();
    const failed = await ctx.stack.preview(collect(ctx)).catch((e: Error) => e);
    expect(String((failed as Error).message)).toMatch(/name: a VM named 'e2e-legacy' already exists on the platform.*set adopt: true/);
    expect((await ctx.requestCounts()).entries.filter((e) => e.method !== "GET")).toEqual([]);
    expect(await count("/v4/vms?filter=name%20eq%20'e2e-legacy'")).toBe(1);
  }, 300_000);

  test("with adopt: true the up takes the row over", async () => {
    adopt = true;
    const up = await ctx.stack.up(collect(ctx));
    expect(up.outputs.legacyKey.value).toBe(legacyKey);
    expect(await count("/v4/vms?filter=name%20eq%20'e2e-legacy'")).toBe(1);
  }, 300_000);

  test("after recovery and adoption a preview shows no changes", async () => {
    const preview = await ctx.stack.preview(collect(ctx));
    expect(Object.keys(preview.changeSummary).filter((k) => k !== "same")).toEqual([]);
  }, 300_000);

  test("destroy removes what the stack manages, the adopted VM included", async () => {
    await ctx.stack.destroy(collect(ctx));
    expect(await count("/v4/vms?filter=name%20bw%20'e2e-'")).toBe(0);
  }, 300_000);
});
