// Every TypeScript example runs under the real engine against the emulator:
// up, the platform holds what it declares, a second preview is empty, destroy leaves nothing.
import * as fs from "node:fs";
import * as path from "node:path";
import { collect, startE2e, type E2eContext } from "./harness";

type Outputs = Record<string, any>;

const get = async (ctx: E2eContext, apiPath: string) => (await ctx.api("GET", apiPath)).body;
/** The VM's live machine status and the node it runs on (null when stopped). */
const liveStatus = (ctx: E2eContext, vmKey: string): Promise<{ status: string; node: number | null }> =>
  get(ctx, `/v4/vms/${vmKey}?fields=machine%23status%23status%20as%20status,machine%23status%23node%20as%20node`);
const expectRunningOnANode = async (ctx: E2eContext, vmKey: string) =>
  expect(await liveStatus(ctx, vmKey)).toEqual({ status: "running", node: expect.any(Number) });
/** Hardware rows of one machine, sorted by name. */
const onMachine = (table: string, machineKey: string, fields: string) =>
  `/v4/${table}?filter=machine%20eq%20${machineKey}&fields=${fields}&sort=%2Bname`;

/** Everything an example may create; after destroy each holds exactly what the emulator was seeded with. */
const createdTables = [
  "vms?filter=is_snapshot%20eq%20false",
  "machine_drives",
  "machine_nics",
  "machine_devices",
  "vnets",
  "cloudinit_files",
];
const rowKeys = async (ctx: E2eContext) =>
  Object.fromEntries(
    await Promise.all(
      createdTables.map(async (t) => [
        t,
        (await get(ctx, `/v4/${t}${t.includes("?") ? "&" : "?"}fields=%24key`)).map((r: { $key: unknown }) => r.$key),
      ]),
    ),
  );

/** API requests per stack operation, from the emulator's counter (kept for the README figures, not asserted). */
type RequestFigures = Record<"up" | "preview" | "destroy", number>;

const repoRoot = path.join(__dirname, "..", "..");

async function runExample(
  folder: string,
  verify: (ctx: E2eContext, outputs: Outputs) => Promise<void>,
  config: Record<string, string> = {},
) {
  // Run as users run it: `pulumi up` in the example folder, index.ts started (and compiled) by the language host.
  const ctx = await startE2e(folder, { projectDir: path.join(repoRoot, "examples", folder) });
  try {
    for (const [key, value] of Object.entries(config)) await ctx.stack.setConfig(key, { value });
    const seeded = await rowKeys(ctx);
    const requests: Partial<RequestFigures> = {};
    const counted = async <T>(op: keyof RequestFigures, run: () => Promise<T>): Promise<T> => {
      await ctx.resetRequestCounts();
      const result = await run();
      requests[op] = (await ctx.requestCounts()).total;
      return result;
    };

    const up = await counted("up", () => ctx.stack.up(collect(ctx)));
    expect(up.summary.result).toBe("succeeded");
    // Kept with VPLATFORM_KEEP_E2E=1: the README of each example shows this output.
    fs.writeFileSync(path.join(ctx.stateDir, "..", "up.txt"), ctx.output.join(""));
    await verify(ctx, Object.fromEntries(Object.entries(up.outputs).map(([k, v]) => [k, v.value])));

    const preview = await counted("preview", () => ctx.stack.preview(collect(ctx)));
    expect(Object.entries(preview.changeSummary).filter(([op, n]) => op !== "same" && n)).toEqual([]);

    const destroy = await counted("destroy", () => ctx.stack.destroy(collect(ctx)));
    expect(destroy.summary.result).toBe("succeeded");
    expect(await rowKeys(ctx)).toEqual(seeded);
    fs.writeFileSync(path.join(ctx.stateDir, "..", "requests.json"), `${JSON.stringify(requests)}\n`);
  } finally {
    await ctx.dispose();
  }
}

describe("examples/three-tier-lab", () => {
  test("one running vnet and three running VMs, each with its drives (the database also a data drive) and a NIC on that vnet", async () => {
    await runExample("three-tier-lab", async (ctx, out) => {
      expect(out.vms.map((v: { name: string }) => v.name)).toEqual(["lab-web", "lab-app", "lab-db"]);
      // Running: a network passes traffic only while it runs.
      expect(await get(ctx, `/v4/vnets/${out.vnetKey}?fields=name,network,machine%23status%23status%20as%20status`)).toEqual({
        name: "three-tier",
        network: "10.40.0.0/24",
        status: "running",
      });
      const GiB = 1024 ** 3;
      const declared = {
        "lab-web": { cpu_cores: 2, ram: 2048, drives: [{ name: "os", media: "disk", disksize: 20 * GiB }] },
        "lab-app": { cpu_cores: 4, ram: 4096, drives: [{ name: "os", media: "disk", disksize: 40 * GiB }] },
        "lab-db": {
          cpu_cores: 4,
          ram: 8192,
          drives: [
            { name: "data", media: "disk", disksize: 200 * GiB },
            { name: "os", media: "disk", disksize: 40 * GiB },
          ],
        },
      };
      for (const vm of out.vms) {
        const { drives, ...settings } = declared[vm.name as keyof typeof declared];
        expect(await get(ctx, `/v4/vms/${vm.key}?fields=cpu_cores,ram`)).toEqual(settings);
        await expectRunningOnANode(ctx, vm.key);
        expect(await get(ctx, onMachine("machine_drives", vm.machineKey, "name,media,disksize"))).toEqual(drives);
        const nics = await get(ctx, onMachine("machine_nics", vm.machineKey, "name,vnet"));
        expect(nics.map((n: { name: string; vnet: unknown }) => ({ name: n.name, vnet: String(n.vnet) }))).toEqual([
          { name: "eth0", vnet: out.vnetKey },
        ]);
      }
    });
  }, 120_000);
});

describe("examples/gpu-passthrough", () => {
  test("the GPU resource group looked up by name is attached to the VM, which VmPower then starts once (no restart)", async () => {
    await runExample("gpu-passthrough", async (ctx, out) => {
      expect(ctx.output.join("")).not.toMatch(/restarting VM 'gpu-trainer'/);
      const [group] = await get(ctx, "/v4/resource_groups?filter=name%20eq%20'nvidia-a100'&fields=uuid");
      expect(out.gpuResourceGroup).toBe(group.uuid);
      const { machine, ...settings } = await get(ctx, `/v4/vms/${out.vmKey}?fields=machine,cpu_cores,ram,uefi`);
      expect(settings).toEqual({ cpu_cores: 8, ram: 32768, uefi: true });
      expect(await get(ctx, onMachine("machine_devices", machine, "resource_group,uuid"))).toEqual([
        { resource_group: group.uuid, uuid: out.deviceUuid },
      ]);
      await expectRunningOnANode(ctx, out.vmKey);
    });
  }, 120_000);
});

describe("examples/golden-image-clones", () => {
  test("three running clones of the template exist, each with a copy of its disk", async () => {
    await runExample("golden-image-clones", async (ctx, out) => {
      expect(await get(ctx, `/v4/vms/${out.templateKey}?fields=name`)).toEqual({ name: "golden-image" });
      expect(out.cloneKeys).toHaveLength(3);
      const names = [];
      for (const key of out.cloneKeys) {
        const { name, machine, ...settings } = await get(ctx, `/v4/vms/${key}?fields=name,machine,cpu_cores,ram`);
        names.push(name);
        expect(settings).toEqual({ cpu_cores: 2, ram: 2048 }); // the template's
        expect(await get(ctx, onMachine("machine_drives", machine, "name,disksize"))).toEqual([{ name: "os", disksize: 16 * 1024 ** 3 }]);
        await expectRunningOnANode(ctx, key);
      }
      expect(names).toEqual(["golden-clone-1", "golden-clone-2", "golden-clone-3"]);
    });
  }, 120_000);

  test("the number of clones comes from stack config `clones`", async () => {
    const config = { "vplatform-golden-image-clones:clones": "2" };
    await runExample(
      "golden-image-clones",
      async (ctx, out) => {
        const clones = await get(
          ctx,
          "/v4/vms?filter=name%20ne%20'golden-image'%20and%20is_snapshot%20eq%20false&fields=%24key,name&sort=%2Bname",
        );
        expect(clones).toEqual([
          { $key: expect.anything(), name: "golden-clone-1" },
          { $key: expect.anything(), name: "golden-clone-2" },
        ]);
        expect(clones.map((c: { $key: unknown }) => String(c.$key)).sort()).toEqual([...out.cloneKeys].sort());
      },
      config,
    );
  }, 120_000);
});

describe("examples/cloud-init", () => {
  test("the VM runs with its /user-data and /meta-data files", async () => {
    await runExample("cloud-init", async (ctx, out) => {
      const files = await get(ctx, `/v4/cloudinit_files?filter=owner%20eq%20'vms/${out.vmKey}'&fields=name,contents&sort=%2Bname`);
      expect(files).toEqual([
        { name: "/meta-data", contents: "instance-id: seeded-1\nlocal-hostname: seeded\n" },
        { name: "/user-data", contents: expect.stringMatching(/^#cloud-config\nhostname: seeded\n/) },
      ]);
      expect(await get(ctx, `/v4/vms/${out.vmKey}?fields=cloudinit_datasource`)).toEqual({ cloudinit_datasource: "nocloud" });
      await expectRunningOnANode(ctx, out.vmKey);
    });
  }, 120_000);
});
