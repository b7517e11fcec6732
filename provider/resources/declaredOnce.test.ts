// A resource is declared once, in its own folder (defineResource), and put in the list: the plugin,
// the dynamic door and its entry module, the SDK's class, schema.json and the docs derive from that,
// with nothing else written; the environment files and the policy's types follow the list too. A folder
// left out of the list fails here; a token the list lacks does not compile (registry.typecheck.ts).
import * as fs from "node:fs";
import * as path from "node:path";
import { z } from "zod";
import { root, sourceFiles } from "../../test/importGraph";
import { ENVIRONMENT_KINDS } from "../../env/environment-kinds";
import { noChange } from "../plan/diff";
import { buildDocs, buildSchema, dynamicEntryFiles } from "../../scripts/gen-schema";
import { sdkClassesFile } from "../../scripts/gen-sdk-types";
import type { PlatformApi, Row } from "../reconcile/platform";
import { defineResource } from "./framework/defineResource";
import { RESOURCES, RESOURCE_LIST, type Resource } from "./index";
import { dynamicDoorOn, pluginServing } from "../../test/provider/throwAwayResource";

/** A resource the provider does not have: its rows live in `gadgets`, made by the platform it is given. */
const gadget = defineResource<Row, Row>({
  token: "Gadget",
  table: "gadgets",
  description: "A gadget of the test.",
  schema: z.object({ name: z.string().min(1).meta({ description: "The gadget's name" }) }),
  outputs: { serial: { type: "string", description: "Given by the platform" } },
  diff: () => noChange(),
  async create(session, inputs) {
    const row = await session.create("gadgets", inputs);
    return { id: row.$key, outs: { ...inputs, serial: `g-${row.$key}` } };
  },
  read: async () => undefined,
  update: async (_session, _id, _olds, news) => news,
  delete: async (session, id) => session.remove("gadgets", id),
});
const withGadget = [...RESOURCE_LIST, gadget];

/** A platform that keeps the rows created on it. */
function platform() {
  const rows: Row[] = [];
  const api = {
    create: async (table: string, body: Row) => (rows.push({ table, ...body }), { $key: String(rows.length) }),
    remove: async () => undefined,
  } as unknown as PlatformApi;
  return { rows, api };
}

describe("a resource declared once appears everywhere the list reaches", () => {
  test("the plugin serves it, on the session of its provider instance", async () => {
    const site = platform();
    const plugin = pluginServing(withGadget, site.api);
    expect(plugin.resourceNames).toContain("Gadget");
    const created = await plugin.create("urn:pulumi:dev::lab::vplatform:index:Gadget::g", { name: "g1" });
    expect(created).toMatchObject({ id: "1", outs: { name: "g1", serial: "g-1" } });
    expect(site.rows).toEqual([expect.objectContaining({ table: "gadgets", name: "g1" })]);
  });

  test("the dynamic door serves it, and its entry module is generated under the file the state will require", async () => {
    const site = platform();
    const door = await dynamicDoorOn(gadget, site.api);
    expect(await door.check({}, { name: "g2", __provider: "p" })).toEqual({ inputs: { name: "g2" } });
    expect(await door.create({ name: "g2", __provider: "p" })).toMatchObject({ id: "1", outs: { serial: "g-1" } });
    expect(gadget.dynamicFile).toBe("gadget");
    expect(dynamicEntryFiles(withGadget)["provider/dynamic/gadget.ts"]).toContain("export = RESOURCES.Gadget.dynamic;");
  });

  test("schema.json declares it, with its inputs and computed outputs, and the docs describe it", () => {
    const schema = buildSchema("0.0.0", withGadget);
    const declared = schema.resources["vplatform:index:Gadget"];
    expect(declared.description).toBe("A gadget of the test.");
    expect(Object.keys(declared.inputProperties)).toEqual(["name"]);
    expect(declared.properties.serial).toMatchObject({ type: "string", description: "Given by the platform" });
    const docs = buildDocs(schema, withGadget);
    expect(docs).toContain("## Gadget\n\nA gadget of the test.");
    expect(docs).toContain("| name | string | yes |");
  });

  test("the SDK has its class, documented by its description and typed by its inputs and computed outputs", () => {
    const sdk = sdkClassesFile(withGadget);
    expect(sdk).toContain("export type GadgetArgs = Args<T.GadgetInputs>;");
    expect(sdk).toContain("/** A gadget of the test. */\nexport class Gadget extends DeclaredResource {");
    expect(sdk).toContain(`super("Gadget", name, args, opts);`);
    expect(sdk).toContain("export interface Gadget extends Outputs<T.GadgetValues & Computed<T.GadgetComputed>> {}");
  });
});

describe("the list", () => {
  test("keys each declaration by its own token, in the order the plugin reports them", () => {
    expect(Object.entries(RESOURCES).map(([key, r]) => [key, r.token])).toEqual(RESOURCE_LIST.map((r) => [r.token, r.token]));
    expect(RESOURCE_LIST.map((r) => r.token)).toEqual([
      "VirtualMachine",
      "Drive",
      "Nic",
      "Device",
      "Vnet",
      "VmSnapshot",
      "VmPower",
      "Webhook",
      "Task",
      "EventTrigger",
      "Schedule",
      "User",
      "ApiKey",
      "Group",
      "Permission",
    ]);
  });

  test("a refresh reads from one listing the tables of the kinds a lab holds many of, each declared by its kind", () => {
    const listing = Object.fromEntries(RESOURCE_LIST.filter((r) => r.refreshListing).map((r) => [r.token, r.refreshListing]));
    // VmSnapshot and VmPower read VM rows; a device's marker is in its name; the automation kinds read row by row.
    expect(listing).toEqual({
      VirtualMachine: "vms",
      Drive: "machine_drives",
      Nic: "machine_nics",
      Vnet: "vnets",
      VmSnapshot: "vms",
      VmPower: "vms",
    });
  });
});

describe("a resource lives in one folder", () => {
  const resourcesDir = path.join(root, "provider/resources");
  const folders = fs
    .readdirSync(resourcesDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name !== "framework")
    .map((d) => d.name);

  test("each folder of provider/resources (but the framework) holds a listed resource, and each listed resource has its folder", () => {
    expect([...folders].sort()).toEqual(RESOURCE_LIST.map((r) => r.dynamicFile).sort());
    for (const r of RESOURCE_LIST) expect(fs.existsSync(path.join(resourcesDir, r.dynamicFile, "resource.ts"))).toBe(true);
  });

  /** Hand-written sources of the provider, SDK and scripts: tests and generated files aside. */
  const handWritten = ["provider", "sdk", "scripts"]
    .flatMap((dir) => sourceFiles(dir))
    .filter((f) => !/\.test\.ts$|\.generated\.ts$|^provider\/dynamic\//.test(f));
  /** The hand-written files outside the folders of `owners` where `literal` is a string of the code (not a JSON member's value). */
  const outside = (owners: readonly Resource[], literal: string) =>
    handWritten.filter(
      (f) =>
        !owners.some((o) => f.startsWith(`provider/resources/${o.dynamicFile}/`)) &&
        new RegExp(`(?<!": )"${literal}"`).test(fs.readFileSync(path.join(root, f), "utf8")),
    );

  test.each(RESOURCE_LIST.map((r) => [r.token, r] as const))("%s's table is named only in the platform's table catalogue", (_token, r) => {
    // provider/schemas/tables.ts: the bottom floor, so no lower module imports a resource folder for a name.
    expect(outside([], r.table).filter((f) => f !== "provider/schemas/tables.ts")).toEqual([]);
  });

  test.each(RESOURCE_LIST.map((r) => [r.token, r] as const))(
    "%s's token is written only in its own folder (where else a token is named, its type is the list's)",
    (_token, r) => {
      // The SDK names the start step it adds (typed ResourceToken): the one other place.
      expect(outside([r], r.token).filter((f) => f !== "sdk/declaredResource.ts")).toEqual([]);
    },
  );
});

describe("every listed resource reaches the environment files and the policy's types", () => {
  const tokens = RESOURCE_LIST.map((r) => r.token).sort();

  test("an environment file gives each its place: a list of its own, or why it has none (env/environment-kinds.ts)", () => {
    expect(Object.keys(ENVIRONMENT_KINDS).sort()).toEqual(tokens);
  });

  test("a policy rule reads each one's inputs by their generated types (InputsByToken, ValuesByToken)", () => {
    const generated = fs.readFileSync(path.join(root, "sdk/schemaTypes.generated.ts"), "utf8");
    for (const map of ["InputsByToken", "ValuesByToken"]) {
      const block = new RegExp(`export interface ${map} \\{([^}]*)\\}`).exec(generated)?.[1] ?? "";
      expect([...block.matchAll(/^\s+(\w+): /gm)].map((m) => m[1]).sort()).toEqual(tokens);
    }
  });
});
