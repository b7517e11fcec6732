// A row resource is its schema and a declaration of its table, noun, shape, name uniqueness and marker place:
// defineResource derives the row mapping, the create (marked, never twice), read, update and delete, the
// replacement order, the SDK's duplicate-name rule and the preview's name check. A throw-away resource shows
// that every door, schema.json, the docs, the SDK and the environment file pick it up with nothing else written
// (an environment file: one entry in env/environment-kinds.ts, as a real resource's).
import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { buildEnvironmentOf } from "../../env/build-environment";
import { ENVIRONMENT_KINDS } from "../../env/environment-kinds";
import { environmentSchemaOf } from "../../env/environment-schema";
import { loadEnvironmentWith } from "../../env/load-environment";
import { root } from "../../test/importGraph";
import { buildDocs, buildSchema, dynamicEntryFiles } from "../../scripts/gen-schema";
import { sdkClassesFile } from "../../scripts/gen-sdk-types";
import type { ListQuery, PlatformApi, Row } from "../reconcile/platform";
import { adoptSchema, apiField } from "../schemas/common";
import { defineResource, rowsOf } from "./framework/defineResource";
import { dynamicDoorOn, pluginServing } from "../../test/provider/throwAwayResource";
import { RESOURCE_LIST, RESOURCES } from "./index";

// The whole declaration of a new row resource: its shape (schema.ts) and this (resource.ts).
const gizmoShape = {
  name: apiField(z.string().min(1), "name", "string", "The gizmo's name, unique on the platform"),
  description: apiField(z.string().default(""), "description", "string", "What it is for"),
  size: apiField(z.number().int().default(1), "size", "int", "Its size; changing it replaces the gizmo", { onChange: "replace" }),
  adopt: adoptSchema,
};
const gizmo = defineResource<Row, Row>({
  token: "Gizmo",
  table: "gizmos",
  description: "A gizmo of the test.",
  schema: z.strictObject(gizmoShape),
  shape: gizmoShape,
  names: "unique",
  marker: "description",
});
const withGizmo = [...RESOURCE_LIST, gizmo];

/** A platform that keeps the rows created on it and answers lists with them. */
function platform(existing: Row[] = []) {
  const rows: Row[] = [...existing];
  const api = {
    create: async (table: string, body: Row) => {
      rows.push({ $key: String(rows.length + 1), table, ...body });
      return { $key: String(rows.length) };
    },
    get: async (_table: string, key: string) => rows.find((r) => r.$key === key),
    list: async (_table: string, query?: ListQuery) => {
      const name = /^name eq '(.*)'$/.exec(query?.filter ?? "")?.[1];
      return rows.filter((r) => name === undefined || r.name === name);
    },
    remove: async () => undefined,
  } as unknown as PlatformApi;
  return { rows, api };
}

const URN = "urn:pulumi:dev::lab::vplatform:index:Gizmo::g";

const plugin = (site: ReturnType<typeof platform>) => pluginServing(withGizmo, site.api);

describe("a row resource is derived from its declaration", () => {
  test("its row: the table, the noun, the shape's columns, found again by its marker, names unique on the platform", () => {
    const rows = rowsOf<Row>(gizmo);
    expect(rows).toMatchObject({ table: "gizmos", what: "gizmo", identity: "marker", namesUniqueOnPlatform: true });
    expect(rows.readFields).toBe("$key,name,description,size");
    expect(gizmo.sdk.refuseDuplicateNames).toBe("inProgram");
  });

  test("the plugin creates it once, marked in its description, and reads it back as declared", async () => {
    const site = platform();
    const served = plugin(site);
    const created = await served.create(URN, { name: "g1", description: "demo", size: 2 });
    expect(created).toMatchObject({ id: "1", outs: { name: "g1", size: 2 } });
    expect(site.rows).toEqual([expect.objectContaining({ table: "gizmos", name: "g1", size: 2 })]);
    expect(String(site.rows[0].description)).toMatch(/^demo \[vplatform:[0-9a-z-]+\]$/);
    const read = await served.read("1", URN, { name: "g1", description: "demo", size: 2 });
    expect(read.props).toMatchObject({ name: "g1", description: "demo", size: 2 });
  });

  test("a replacement keeping the name deletes first (the platform refuses a second row of the name)", async () => {
    const diff = await plugin(platform()).diff("1", URN, { name: "g1", size: 1 }, { name: "g1", size: 2 });
    expect(diff).toMatchObject({ replaces: ["size"], deleteBeforeReplace: true });
  });

  test("the preview refuses a new name taken on the platform, and says how to adopt it", async () => {
    const checked = await plugin(platform([{ $key: "7", name: "taken", description: "theirs" }])).check(URN, {}, { name: "taken" });
    expect(checked.failures?.map((f) => f.reason)).toEqual([
      expect.stringMatching(/a gizmo named 'taken' already exists on the platform \(key 7\).*adopt: true/),
    ]);
  });

  test("the dynamic door serves it, and its entry module is generated", async () => {
    const site = platform();
    const door = await dynamicDoorOn(gizmo, site.api);
    expect(await door.create({ name: "g2", __provider: "p" })).toMatchObject({ id: "1", outs: { name: "g2" } });
    expect(dynamicEntryFiles(withGizmo)["provider/dynamic/gizmo.ts"]).toContain("export = RESOURCES.Gizmo.dynamic;");
  });

  test("schema.json, the docs and the SDK's class declare it", () => {
    const schema = buildSchema("0.0.0", withGizmo);
    expect(Object.keys(schema.resources["vplatform:index:Gizmo"].inputProperties)).toEqual(["name", "description", "size", "adopt"]);
    expect(buildDocs(schema, withGizmo)).toContain("## Gizmo\n\nA gizmo of the test.");
    expect(sdkClassesFile(withGizmo)).toContain(`super("Gizmo", name, args, opts);`);
  });
});

/** A resource declared through the plugin's door (`vplatform:index:<token>`), as a program in another language declares it. */
class PluginResource extends pulumi.CustomResource {
  constructor(token: string, name: string, args: object) {
    super(`vplatform:index:${token}`, name, args);
  }
}

describe("an environment file lists it by its one entry in the kinds table", () => {
  const kinds = { ...ENVIRONMENT_KINDS, Gizmo: { list: "gizmos" } };
  const schema = environmentSchemaOf(kinds, { ...RESOURCES, Gizmo: gizmo });
  const file = (gizmos: string) => `vnets:\n  - { name: lab, network: 10.20.0.0/24 }\ngizmos:\n${gizmos}`;

  test("its list is read with its input schema: defaults applied, a bad value and a name given twice refused at their line", () => {
    const { env } = loadEnvironmentWith(schema, "lab.yaml", file("  - { name: g1, size: 2 }\n  - { name: g2 }\n"));
    expect(env.gizmos).toEqual([
      { name: "g1", description: "", size: 2 },
      { name: "g2", description: "", size: 1 },
    ]);
    expect(() => loadEnvironmentWith(schema, "lab.yaml", file("  - { name: g1 }\n  - { name: g2, size: big }\n"))).toThrow(
      /^lab\.yaml:5:\d+: gizmos\[1\]\.size: /,
    );
    expect(() => loadEnvironmentWith(schema, "lab.yaml", file("  - { name: g1 }\n  - { name: g1 }\n"))).toThrow(
      /^lab\.yaml:5:\d+: gizmos\[1\]\.name: gizmo name 'g1' is declared twice$/,
    );
    expect(() => loadEnvironmentWith(schema, "lab.yaml", "gizmoz: []\n")).toThrow(/gizmoz/);
  });

  test("its entries are built into gizmos, created once each through the plugin, their keys the stack outputs", async () => {
    const site = platform();
    const served = plugin(site);
    const registered: string[] = [];
    await pulumi.runtime.setMocks(
      {
        // The engine's steps for a new resource, on the plugin: check, then create (the default provider is no row).
        newResource: async ({ type, name, inputs }) => {
          if (type.startsWith("pulumi:providers:")) return { id: "default", state: {} };
          registered.push(`${type}::${name}`);
          const urn = `urn:pulumi:dev::lab::${type}::${name}`;
          const checked = await served.check(urn, {}, inputs);
          expect(checked.failures ?? []).toEqual([]);
          const created = await served.create(urn, checked.inputs);
          return { id: created.id, state: created.outs };
        },
        call: () => ({}),
      },
      "lab",
      "dev",
    );
    const { env } = loadEnvironmentWith(schema, "lab.yaml", "gizmos:\n  - { name: g1, size: 2 }\n  - { name: g2 }\n");
    // Through the plugin's door: this package's SDK classes are generated for the real list.
    const built = buildEnvironmentOf(kinds, env, (token, name, args) => new PluginResource(token, name, args));
    const keys = await Promise.all(
      Object.entries(built.gizmos).map(
        ([name, key]) => new Promise((resolve) => (key as pulumi.Output<string>).apply((k) => resolve([name, k]))),
      ),
    );
    expect(Object.fromEntries(keys as [string, string][])).toEqual({ g1: "1", g2: "2" });
    expect(registered).toEqual(["vplatform:index:Gizmo::g1", "vplatform:index:Gizmo::g2"]);
    expect(site.rows).toEqual([
      expect.objectContaining({ table: "gizmos", name: "g1", size: 2, description: expect.stringMatching(/^\[vplatform:[0-9a-z-]+\]$/) }),
      expect.objectContaining({ table: "gizmos", name: "g2", size: 1 }),
    ]);
  });
});

describe("a row of a machine (names perMachine) is the hardware behaviour on its derived row", () => {
  test("a NIC: its row, the SDK's machine rule, a name refused twice on one machine, its table listed on refresh", () => {
    expect(rowsOf<Row>(RESOURCES.Nic)).toMatchObject({
      table: "machine_nics",
      what: "NIC",
      identity: "marker",
      namesUniqueOnPlatform: false,
    });
    expect(RESOURCES.Nic.sdk).toEqual({ onMachine: true, refuseDuplicateNames: "onMachine" });
    expect(RESOURCES.Nic.refreshListing).toBe("machine_nics");
  });
});

describe("a plain row resource's resource.ts is its declaration alone", () => {
  test.each([RESOURCES.Webhook, RESOURCES.Task, RESOURCES.Nic].map((r) => [r.token, r] as const))("%s: at most 15 lines", (_token, r) => {
    const lines = fs
      .readFileSync(path.join(root, "provider/resources", r.dynamicFile, "resource.ts"), "utf8")
      .trimEnd()
      .split("\n");
    expect(lines.length).toBeLessThanOrEqual(15);
  });
});
