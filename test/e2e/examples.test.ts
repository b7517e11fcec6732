// Every TypeScript example runs under the real engine against the emulator:
// up, the platform holds what it declares, a second preview is empty, destroy leaves nothing.
import * as fs from "fs";
import * as path from "path";
import { collect, startE2e, type E2eContext } from "./harness";

async function runExample(folder: string, verify: (ctx: E2eContext, outputs: Record<string, any>) => Promise<void>) {
  // Run as users run it: `pulumi up` in the example folder, the program started by the language host.
  const ctx = await startE2e(folder, { projectDir: path.join(__dirname, "..", "..", "examples", folder) });
  try {
    const up = await ctx.stack.up(collect(ctx));
    expect(up.summary.result).toBe("succeeded");
    fs.writeFileSync(path.join(ctx.stateDir, "..", "up.txt"), ctx.output.join(""));
    await verify(ctx, Object.fromEntries(Object.entries(up.outputs).map(([k, v]) => [k, v.value])));
    const preview = await ctx.stack.preview(collect(ctx));
    expect(Object.keys(preview.changeSummary).filter((k) => k !== "same")).toEqual([]);
    await ctx.stack.destroy(collect(ctx));
    expect((await ctx.api("GET", "/v4/vms?filter=is_snapshot%20eq%20false")).body).toEqual([]);
  } finally {
    await ctx.dispose();
  }
}

const get = async (ctx: E2eContext, apiPath: string) => (await ctx.api("GET", apiPath)).body;
const statusOf = (ctx: E2eContext, vmKey: string) => get(ctx, `/v4/vms/${vmKey}?fields=machine%23status%23status%20as%20status`).then((r) => r.status);

describe("examples/three-tier-lab", () => {
  test("one vnet and three running VMs, each with an OS drive and a NIC on that vnet", async () => {
    await runExample("three-tier-lab", async (ctx, out) => {
      expect(out.vms.map((v: { name: string }) => v.name)).toEqual(["lab-web", "lab-app", "lab-db"]);
      for (const vm of out.vms) {
        expect(await statusOf(ctx, vm.key)).toBe("running");
        expect(await get(ctx, `/v4/machine_drives?filter=machine%20eq%20${vm.machineKey}&fields=name`)).toEqual([{ name: "os" }]);
        expect(await get(ctx, `/v4/machine_nics?filter=machine%20eq%20${vm.machineKey}&fields=vnet`)).toEqual([{ vnet: Number(out.vnetKey) }]);
      }
    });
  }, 300_000);
});

describe("examples/gpu-passthrough", () => {
  test("the GPU looked up by name is attached to the VM", async () => {
    await runExample("gpu-passthrough", async (ctx, out) => {
      const [group] = await get(ctx, "/v4/resource_groups?filter=name%20eq%20'nvidia-a100'&fields=uuid");
      expect(out.gpuResourceGroup).toBe(group.uuid);
      const machine = (await get(ctx, `/v4/vms/${out.vmKey}?fields=machine`)).machine;
      expect(await get(ctx, `/v4/machine_devices?filter=machine%20eq%20${machine}&fields=resource_group,uuid`)).toEqual([
        { resource_group: group.uuid, uuid: out.deviceUuid },
      ]);
      expect(await statusOf(ctx, out.vmKey)).toBe("running");
    });
  }, 300_000);
});

describe("examples/golden-image-clones", () => {
  test("three clones of the template exist, each with a copy of its disk", async () => {
    await runExample("golden-image-clones", async (ctx, out) => {
      expect(out.cloneKeys).toHaveLength(3);
      for (const key of out.cloneKeys) {
        const clone = await get(ctx, `/v4/vms/${key}?fields=name,machine`);
        expect(clone.name).toMatch(/^golden-clone-\d$/);
        expect(await get(ctx, `/v4/machine_drives?filter=machine%20eq%20${clone.machine}&fields=name`)).toEqual([{ name: "os" }]);
      }
    });
  }, 300_000);
});

describe("examples/cloud-init", () => {
  test("the VM runs with its /user-data and /meta-data files", async () => {
    await runExample("cloud-init", async (ctx, out) => {
      const files = await get(ctx, `/v4/cloudinit_files?filter=owner%20eq%20'vms/${out.vmKey}'&fields=name&sort=%2Bname`);
      expect(files).toEqual([{ name: "/meta-data" }, { name: "/user-data" }]);
      expect(await statusOf(ctx, out.vmKey)).toBe("running");
    });
  }, 300_000);
});
