// A row resource is its schema and a declaration of its table, noun, shape, name uniqueness and marker place:
// defineResource derives the row mapping, the create (marked, never twice), read, update and delete, the
// replacement order, the SDK's duplicate-name rule and the preview's name check. A throw-away resource shows
// that every door, schema.json, the docs and the SDK pick it up with nothing else written.
import * as fs from "node:fs";
import * as path from "node:path";
import { z } from "zod";
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
