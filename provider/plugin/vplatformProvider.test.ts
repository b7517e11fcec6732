import type { PlatformApi, Row } from "../reconcile/platform";
import { engineDeadline, withDeadline } from "../client/operationDeadline";
import { pollUntil, realClock } from "../reconcile/waitFor";
import { resolveTimeouts } from "../resources/framework/operationTimeouts";
import { VplatformProvider } from "./vplatformProvider";
import { RESOURCE_LIST } from "../resources";

const quietClock = { ...realClock, log: () => undefined, progress: () => undefined };

const SCHEMA = { name: "vplatform", version: "1.2.3", resources: {} };
const urnOf = (type: string) => `urn:pulumi:dev::lab::vplatform:index:${type}::web`;

/** A platform per endpoint: its vnets, and the requests it got. */
function fakePlatforms() {
  const sites = new Map<string, { vnets: Row[]; calls: string[] }>();
  const factory = (get: (key: string) => string | undefined): PlatformApi => {
    const endpoint = get("vplatform:endpoint") ?? "(none)";
    const site = sites.get(endpoint) ?? { vnets: [], calls: [] };
    sites.set(endpoint, site);
    return {
      list: async () => [],
      get: async (_t, key) => site.vnets.find((v) => String(v.$key) === key),
      create: async (table, body) => {
        site.calls.push(`POST ${table}`);
        const row = { $key: site.vnets.length + 1, ...body };
        site.vnets.push(row);
        return { $key: String(row.$key), location: "", response: row };
      },
      action: async () => ({ $key: "", location: "" }),
      update: async () => undefined,
      remove: async (table, key) => void site.calls.push(`DELETE ${table}/${key}`),
    } as unknown as PlatformApi;
  };
  return { sites, factory };
}

const provider = (factory: ReturnType<typeof fakePlatforms>["factory"], timeout = () => 0) =>
  new VplatformProvider(timeout, { text: JSON.stringify(SCHEMA), schema: SCHEMA }, factory);

describe("each provider instance has its own settings and platform client", () => {
  test("two instances in one process create on their own site", async () => {
    const { sites, factory } = fakePlatforms();
    const a = provider(factory);
    const b = provider(factory);
    a.configure({ endpoint: "https://a.example", apiKey: "ka" });
    b.configure({
      endpoint: "https://b.example",
      apiKey: { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value: "kb" },
    });
    await Promise.all([a.create(urnOf("Vnet"), { name: "net-a" }), b.create(urnOf("Vnet"), { name: "net-b" })]);
    expect(sites.get("https://a.example")?.vnets.map((v) => v.name)).toEqual(["net-a"]);
    expect(sites.get("https://b.example")?.vnets.map((v) => v.name)).toEqual(["net-b"]);
  });

  test("an instance that was never configured refuses to act, naming the resource", async () => {
    await expect(provider(fakePlatforms().factory).create(urnOf("Vnet"), { name: "n" })).rejects.toThrow(
      /provider of urn:.*Vnet::web was not configured/,
    );
  });
});

describe("a row imported through the plugin carries the SDK's provider module; a refreshed one does not", () => {
  /** The module a `__provider` text is, run as Pulumi's dynamic-resource host runs it: what its handler requires. */
  const requiredBy = (source: string): string[] => {
    const required: string[] = [];
    const exports: { handler?: () => unknown } = {};
    new Function("exports", "require", source)(exports, (id: string) => required.push(id));
    exports.handler?.();
    return required;
  };

  test("an import (no state yet) answers the outputs with `__provider` requiring the resource's module of the SDK", async () => {
    const { factory } = fakePlatforms();
    const p = provider(factory);
    p.configure({ endpoint: "https://a.example", apiKey: "ka" });
    await p.create(urnOf("Vnet"), { name: "net-a" });
    const imported = await p.read("1", urnOf("Vnet"), {});
    expect(requiredBy(String(imported.props?.__provider))).toEqual(["vplatform/provider/vnet"]);
    expect(imported.inputs).not.toHaveProperty("__provider"); // the code `pulumi import` prints is made of the inputs
    const refreshed = await p.read("1", urnOf("Vnet"), { name: "net-a" }); // a plugin program's state has none
    expect(refreshed.props).not.toHaveProperty("__provider");
  });

  test("the module it requires is an entry of the package's exports, for every resource", () => {
    const { exports } = require("../../package.json") as { exports: Record<string, string> };
    expect(exports["./provider/*"]).toBe("./dist/provider/dynamic/*.js");
    for (const r of RESOURCE_LIST) expect(require.resolve(`../dynamic/${r.dynamicFile}`)).toBeTruthy();
  });
});

describe("the create marker of a program that passes none", () => {
  const tagOf = (row: Row) => /\[vplatform:([0-9a-f]+)\]/.exec(String(row.description))?.[1];

  test("comes from the URN: the same in every run (a later provider instance), another for another resource, and never recorded", async () => {
    const { sites, factory } = fakePlatforms();
    const runs = [provider(factory), provider(factory)];
    for (const p of runs) p.configure({ endpoint: "https://a.example", apiKey: "k" });
    const first = await runs[0].create(urnOf("Vnet"), { name: "net" });
    await runs[1].create(urnOf("Vnet"), { name: "net" });
    await runs[1].create("urn:pulumi:dev::lab::vplatform:index:Vnet::other", { name: "net2" });
    const tags = sites.get("https://a.example")!.vnets.map(tagOf);
    expect(tags[0]).toMatch(/^[0-9a-f]{16}$/);
    expect(tags).toEqual([tags[0], tags[0], expect.not.stringMatching(tags[0]!)]);
    expect(first.outs).not.toHaveProperty("__marker");
  });

  test("a marker the program passes is the one used, and recorded as given", async () => {
    const { sites, factory } = fakePlatforms();
    const p = provider(factory);
    p.configure({ endpoint: "https://a.example", apiKey: "k" });
    const created = await p.create(urnOf("Vnet"), { name: "net", __marker: "given-marker-1" });
    expect(sites.get("https://a.example")!.vnets[0].description).toMatch(/\[vplatform:given-marker-1\]/);
    expect(created.outs).toMatchObject({ __marker: "given-marker-1" });
  });
});

describe("checkConfig", () => {
  test("refuses settings the provider cannot use, naming the key", () => {
    const p = provider(fakePlatforms().factory);
    const saved = process.env.VPLATFORM_ENDPOINT;
    delete process.env.VPLATFORM_ENDPOINT;
    try {
      expect(p.checkConfig({ endpoint: "http://plain.example", apiKey: "k" })).toEqual([
        { property: "endpoint", reason: expect.stringMatching(/must be an https:\/\/ URL/) },
      ]);
      expect(p.checkConfig({ endpoint: "https://ok.example", apiKey: "k", requestBudget: 0 })).toEqual([
        { property: "requestBudget", reason: expect.stringMatching(/positive integer/) },
      ]);
      expect(p.checkConfig({ endpoint: "https://ok.example", apiKey: "k", insecure: true, requestTimeoutMs: 5000 })).toEqual([]);
    } finally {
      if (saved !== undefined) process.env.VPLATFORM_ENDPOINT = saved;
    }
  });
});

describe("resource types", () => {
  test("a type the plugin does not serve is refused with the list it serves", async () => {
    const p = provider(fakePlatforms().factory);
    p.configure({ endpoint: "https://a.example", apiKey: "k" });
    await expect(p.check("urn:pulumi:dev::lab::vplatform:index:Router::r", {}, {})).rejects.toThrow(
      `unknown resource type 'vplatform:index:Router' (this provider serves ${RESOURCE_LIST.map((r) => r.token).join(", ")})`,
    );
  });

  test("resources nested under a component are found by their own type", async () => {
    const p = provider(fakePlatforms().factory);
    p.configure({ endpoint: "https://a.example", apiKey: "k" });
    await expect(p.check("urn:pulumi:dev::lab::my:lab:Lab$vplatform:index:Vnet::n", {}, { name: "n" })).resolves.toMatchObject({
      inputs: { name: "n" },
    });
  });
});

describe("customTimeouts", () => {
  test("the engine's time limit bounds every wait of the operation, beats the timeouts input and is named in the error", async () => {
    const limits = await withDeadline(engineDeadline("create", 0.2), async () => resolveTimeouts({ powerChange: 600 }));
    expect(limits.powerChange).toBeLessThanOrEqual(1);
    const wait = withDeadline(engineDeadline("create", 0.2), () =>
      pollUntil(
        async () => "starting",
        () => false,
        (s) => `status ${s}`,
        { timeoutSec: 600, label: "VM 'web' to reach running", timeoutInput: "powerChange", initialDelayMs: 20, clock: quietClock },
      ),
    );
    await expect(wait).rejects.toThrow(
      /^vplatform: customTimeouts\.create \(0\.2s\) ran out after \d+s waiting for VM 'web' to reach running \(last status starting\); raise customTimeouts\.create/,
    );
  });

  test("without customTimeouts the timeouts input rules", () => {
    expect(resolveTimeouts({ powerChange: 600 }).powerChange).toBe(600);
  });

  test("the plugin turns the request's timeout into the deadline of that operation", () => {
    expect(engineDeadline("delete", 30, 1_000)).toMatchObject({
      at: 31_000,
      limit: "customTimeouts.delete",
      seconds: 30,
      bindsWaits: true,
    });
    expect(engineDeadline("update", 0)).toBeUndefined();
  });
});
