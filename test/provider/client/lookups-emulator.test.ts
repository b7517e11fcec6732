import { ApiClient } from "../../../provider/client/api-client";
import {
  LookupError,
  findClusterByName,
  findMediaFileByName,
  findResourceGroupByName,
  findStorageTierByName,
  findVgpuDeviceByName,
  findVmByName,
  findVnetByName,
} from "../../../provider/client/lookups";
import { RequestPacer } from "../../../provider/client/pacer";
import type { ProviderConfig } from "../../../provider/config/provider-config";
import { type RunningEmulator, startEmulator } from "../../../emulator/index";

let emu: RunningEmulator;
let client: ApiClient;
const configFor = (e: RunningEmulator, extra: Partial<ProviderConfig> = {}): ProviderConfig => ({
  endpoint: e.url,
  apiKey: e.apiKey,
  caCert: e.caCert,
  insecure: false,
  tokenHeader: "x-service-token",
  requestTimeoutMs: 10_000,
  ...extra,
});

beforeAll(async () => {
  emu = await startEmulator({ port: 0, timeScale: 0.01, quiet: true });
  client = new ApiClient(configFor(emu), { pacer: new RequestPacer() });
});
afterAll(async () => {
  client.close();
  await emu.close();
});

describe("look-ups by name against the emulator", () => {
  test("a vnet whose name needs quote escaping", async () => {
    const { $key } = await client.create("vnets", { name: "O'Brien's lan", type: "internal", network: "10.9.0.0/24" });
    await expect(findVnetByName(client, "O'Brien's lan", "$key,name")).resolves.toEqual({ $key: expect.anything(), name: "O'Brien's lan" });
    expect(String((await findVnetByName(client, "O'Brien's lan", "$key")).$key)).toBe($key);
  });

  test("a VM, never its snapshot of the same name", async () => {
    const { $key } = await client.create("vms", { name: "lookup-vm" });
    await client.action("vm_actions", { vm: $key, action: "snapshot", params: { name: "lookup-vm" } });
    const row = await findVmByName(client, "lookup-vm", "$key,name,is_snapshot");
    expect(row).toMatchObject({ name: "lookup-vm", is_snapshot: false });
    expect(String(row.$key)).toBe($key);
  });

  test("the seeded cluster, storage tier, resource group, vGPU device and media file", async () => {
    const cluster = await client.list("clusters", { fields: "name", limit: 1 });
    await expect(findClusterByName(client, String(cluster[0].name), "name")).resolves.toMatchObject(cluster[0]);
    await expect(findStorageTierByName(client, "Tier 3", "tier")).resolves.toMatchObject({ tier: 3 });
    const [group] = await client.list("resource_groups", { fields: "name,uuid", limit: 1 });
    await expect(findResourceGroupByName(client, String(group.name), "uuid")).resolves.toMatchObject({ uuid: group.uuid });
    const [vgpu] = await client.list("node_nvidia_vgpu_devices", { fields: "name", limit: 1 });
    await expect(findVgpuDeviceByName(client, String(vgpu.name), "name")).resolves.toMatchObject(vgpu);
    const [file] = await client.list("files", { fields: "name", limit: 1 });
    await expect(findMediaFileByName(client, String(file.name), "name")).resolves.toMatchObject(file);
  });

  test("an unknown name is a LookupError naming the thing", async () => {
    const err = await findVnetByName(client, "no-such-net").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LookupError);
    expect((err as Error).message).toBe("no vnet named 'no-such-net'");
  });
});

describe("user name and password against the emulator", () => {
  test("are accepted as Basic credentials on every request (no session is opened)", async () => {
    const basic = new ApiClient(configFor(emu, { apiKey: undefined, username: emu.adminUser, password: emu.adminPassword }), {
      pacer: new RequestPacer(),
    });
    await expect(basic.list("vms", { fields: "name", limit: 1 })).resolves.toEqual(expect.any(Array));
    await expect(basic.list("vnets", { fields: "name", limit: 1 })).resolves.toEqual(expect.any(Array));
    expect(basic.requestCount).toBe(2);
    basic.close();
  });
});
