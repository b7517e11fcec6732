import * as https from "node:https";
import type * as pulumi from "@pulumi/pulumi";
import { jsonRequest } from "../../emulator/client/jsonRequest";
import { type RunningEmulator, startEmulator } from "../../emulator/index";

/**
 * Look-ups run in the program process, so they are configured like a program
 * without stack config would be: from the VPLATFORM_* environment variables.
 */
const ENV = ["VPLATFORM_ENDPOINT", "VPLATFORM_API_KEY", "VPLATFORM_CA_CERT"] as const;
const saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator({ port: 0, timeScale: 0.01, quiet: true });
  process.env.VPLATFORM_ENDPOINT = emu.url;
  process.env.VPLATFORM_API_KEY = emu.apiKey;
  process.env.VPLATFORM_CA_CERT = emu.caCert;
  // Compiling the SDK is set-up, not part of any rule below: on a loaded machine it alone outlasts a test's 5 s.
  sdk();
}, 60_000);
afterAll(async () => {
  for (const k of ENV) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  await emu.close();
});

const sdk = () => require("../../sdk/lookups") as typeof import("../../sdk/lookups");
/** The value of an Output outside a deployment (known values only). */
const outputValue = <T>(o: pulumi.Output<T>): Promise<T> => (o as unknown as { promise(): Promise<T> }).promise();

describe("SDK look-ups by name against the platform", () => {
  test("getResourceGroupOutput finds the seeded GPU by exact name, not its longer-named siblings", async () => {
    const group = sdk().getResourceGroupOutput({ name: "nvidia-a100" });
    expect(await outputValue(group)).toEqual({
      uuid: "0f3e6a52-6d1b-4b8e-9a51-a100a100a001",
      name: "nvidia-a100",
      type: "node_host_gpu_devices",
      id: "0f3e6a52-6d1b-4b8e-9a51-a100a100a001",
    });
    expect(await outputValue(group.uuid)).toBe("0f3e6a52-6d1b-4b8e-9a51-a100a100a001");
  });

  test("a name that matches nothing is an error naming what was searched", async () => {
    await expect(sdk().getResourceGroup({ name: "no-such-gpu" })).rejects.toThrow("no resource group named 'no-such-gpu'");
  });

  test("storage tiers, which have no name, are found by number or description", async () => {
    expect(await sdk().getStorageTier({ name: "3" })).toEqual({ id: "3", name: "Tier 3", tier: 3 });
    expect(await sdk().getStorageTier({ name: "Tier 5" })).toMatchObject({ tier: 5 });
  });
});

describe("readTable is the older form of getTableRows", () => {
  test("the same rows as getTableRows, fields given as one comma-separated string", async () => {
    const args = { table: "logs", filter: "object_type eq 'system'", sort: "+timestamp" };
    const { rows } = await sdk().getTableRows({ ...args, fields: ["level", "text"] });
    expect(await sdk().readTable({ ...args, fields: "level,text" })).toEqual(rows);
    expect(rows).toContainEqual({ level: "message", text: "system started" });
  });

  test("without a limit it reads every row, where getTableRows stops at 100", async () => {
    const agent = new https.Agent({ ca: emu.caCert });
    for (let i = 0; i < 101; i++) {
      const body = { name: `category-${i}` };
      await jsonRequest({
        method: "POST",
        url: `${emu.url}/api/v4/tag_categories`,
        agent,
        body,
        headers: { authorization: `Bearer ${emu.apiKey}` },
      });
    }
    agent.destroy();
    const keys = await sdk().readTable({ table: "tag_categories", fields: "$key" });
    expect(keys).toHaveLength(101);
    expect((await sdk().getTableRows({ table: "tag_categories", fields: ["$key"] })).rows).toHaveLength(100);
    expect(await sdk().readTable({ table: "tag_categories", fields: ["$key"], limit: 3 })).toEqual(keys.slice(0, 3));
  });

  test("an action table is refused as getTableRows refuses it, before any request", async () => {
    await expect(sdk().readTable({ table: "vm_actions" })).rejects.toThrow("is an action table");
  });
});
