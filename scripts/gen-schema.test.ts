// schema.json and docs/resources.md are generated from the zod schemas; these
// tests fail when the committed files are stale or break Pulumi's schema rules.
import * as fs from "node:fs";
import * as path from "node:path";
import { RESOURCE_LIST } from "../provider/resources";
import { LOOKUP_FUNCTIONS } from "../provider/resources/lookupFunctions";
import { buildSchema, enumValueName, generatedFiles, goImportBasePath } from "./gen-schema";

const root = path.resolve(__dirname, "..");
const schema = buildSchema("0.0.0");
const resources = Object.entries<any>(schema.resources).filter(([, r]) => !r.isComponent);

describe("the committed generated files", () => {
  test.each(Object.entries(generatedFiles(root)))(
    "%s is what the zod schemas generate (run `node dist/scripts/gen-schema.js`)",
    (file, text) => {
      expect(fs.readFileSync(path.join(root, file), "utf8")).toBe(text);
    },
  );
});

describe("the Go SDK's import path (Pulumi's convention for a package SDK: <repository>/sdk/go[/vN]/<name>)", () => {
  test("from the schema's repository, with no major version before v2", () => {
    expect(schema.repository).toBe("https://github.com/vplatform/pulumi-vplatform");
    expect(goImportBasePath("0.1.0")).toBe("github.com/vplatform/pulumi-vplatform/sdk/go/vplatform");
    expect(goImportBasePath("1.4.0")).toBe("github.com/vplatform/pulumi-vplatform/sdk/go/vplatform");
  });
  test("a major version from 2 on is part of the module path, as Go requires", () => {
    expect(goImportBasePath("2.0.0")).toBe("github.com/vplatform/pulumi-vplatform/sdk/go/v2/vplatform");
  });
  test("is the schema's language.go.importBasePath", () => {
    expect(buildSchema("3.1.0").language.go).toEqual({ importBasePath: "github.com/vplatform/pulumi-vplatform/sdk/go/v3/vplatform" });
  });
});

describe("Pulumi package schema shape", () => {
  test("resources are keyed by vplatform:index:<Token>", () => {
    expect(schema.name).toBe("vplatform");
    expect(resources.map(([t]) => t)).toEqual(RESOURCE_LIST.map((r) => `vplatform:index:${r.token}`));
  });
  test("the one component is vp.Lab, with vp.Lab's inputs and its copies as output", () => {
    const components = Object.entries<any>(schema.resources).filter(([, r]) => r.isComponent);
    expect(components.map(([t]) => t)).toEqual(["vplatform:index:Lab"]);
    const [, lab] = components[0];
    expect(Object.keys(lab.inputProperties)).toEqual(
      expect.arrayContaining([
        "copies",
        "pool",
        "copyName",
        "copyPrefix",
        "vms",
        "vnet",
        "user",
        "access",
        "apiKey",
        "resetSnapshot",
        "calendar",
      ]),
    );
    expect(lab.requiredInputs).toEqual(["copies", "pool", "vms"]);
    expect(lab.properties.copies.additionalProperties).toEqual({ $ref: "#/types/vplatform:index:LabCopy" });
    expect(schema.types["vplatform:index:LabCopyApiKey"].properties.secret.secret).toBe(true);
  });
  test.each(resources)("%s: required inputs and outputs exist, and every input is also an output", (_t, r) => {
    for (const name of r.requiredInputs) expect(r.inputProperties).toHaveProperty([name]);
    for (const name of r.required) expect(r.properties).toHaveProperty([name]);
    for (const name of Object.keys(r.inputProperties)) expect(r.properties).toHaveProperty([name]);
  });
  test.each(resources)("%s: every input is documented", (_t, r) => {
    const undocumented = Object.entries<any>(r.inputProperties).filter(([, p]) => !p.description);
    expect(undocumented.map(([k]) => k)).toEqual([]);
  });
  test("every $ref points at a type of the schema or at pulumi.json", () => {
    const refs: string[] = JSON.stringify(schema).match(/"\$ref":"[^"]+"/g) ?? [];
    for (const ref of refs.map((r) => r.slice(8, -1))) {
      if (ref.startsWith("pulumi.json#/")) continue;
      expect(schema.types).toHaveProperty([ref.replace("#/types/", "")]);
    }
  });
  test("enums are string types whose values all have identifier names", () => {
    const enums = Object.values<any>(schema.types).filter((t) => t.enum);
    expect(enums.length).toBeGreaterThan(10);
    for (const e of enums) {
      expect(e.type).toBe("string");
      for (const v of e.enum) expect(v.name).toMatch(/^[A-Za-z][A-Za-z0-9]*$/);
    }
  });
  test("shared objects are named types (Timeouts, CloneFrom)", () => {
    expect(schema.types["vplatform:index:Timeouts"]).toMatchObject({ type: "object", properties: { create: { type: "number" } } });
    expect(schema.resources["vplatform:index:VirtualMachine"].inputProperties.cloneFrom.$ref).toBe(
      "#/types/vplatform:index:VirtualMachineCloneFrom",
    );
  });
  test("defaults, required inputs and secrets come from the zod schemas", () => {
    const vm = schema.resources["vplatform:index:VirtualMachine"];
    expect(vm.requiredInputs).toEqual(["name"]);
    expect(vm.inputProperties.powerCyclePolicy.default).toBe("restart");
    expect(vm.inputProperties.consolePassHash.secret).toBe(true);
    expect(schema.resources["vplatform:index:Nic"].inputProperties.enabled.default).toBe(true);
    expect(schema.resources["vplatform:index:Drive"].requiredInputs).toEqual(["machine"]);
  });
});

describe("functions: each look-up's declared arguments and result", () => {
  const functions = Object.entries<any>(schema.functions);
  test("every declared look-up is a function, keyed by vplatform:index:<name>", () => {
    expect(functions.map(([t]) => t)).toEqual(LOOKUP_FUNCTIONS.map((f) => `vplatform:index:${f.name}`));
  });
  test.each(functions)("%s: every argument and result field is documented", (_t, f) => {
    const fields = { ...f.inputs.properties, ...f.outputs.properties };
    expect(Object.keys(fields).filter((k) => !fields[k].description)).toEqual([]);
  });
  test("required arguments are those without a default; every result field is there", () => {
    const files = schema.functions["vplatform:index:getVolumeFiles"];
    expect(files.inputs.required).toEqual(["volume"]);
    expect(files.inputs.properties.limit).toMatchObject({ type: "integer", default: 1000 });
    expect(files.outputs.required).toEqual(["volume", "entries"]);
    expect(files.outputs.properties.entries.items.$ref).toBe("#/types/vplatform:index:GetVolumeFilesResultEntriesItem");
    expect(schema.types["vplatform:index:GetVolumeFilesResultEntriesItem"].required).toEqual(["name", "path", "size", "date", "type"]);
    expect(schema.functions["vplatform:index:getEventTypes"].inputs.required).toBeUndefined();
  });
  test("a table's rows are objects of any fields", () => {
    expect(schema.functions["vplatform:index:getTableRows"].outputs.properties.rows.items).toEqual({
      type: "object",
      additionalProperties: { $ref: "pulumi.json#/Any" },
    });
  });
});

describe("docs/resources.md functions", () => {
  test("each function has its arguments table and its result", () => {
    const docs = fs.readFileSync(path.join(root, "docs/resources.md"), "utf8");
    for (const f of LOOKUP_FUNCTIONS) expect(docs).toContain(`## ${f.name}\n\n${f.description}\n\n| argument |`);
    expect(docs).toContain("| path | string | yes |  | Path of the file, relative to the volume's root (e.g. images/ubuntu.iso) |");
  });
});

describe("enum value names", () => {
  test.each([
    ["virtio-scsi", "VirtioScsi"],
    ["mbytes/second", "MbytesSecond"],
    ["config_drive_v2", "ConfigDriveV2"],
    ["9p", "Value9p"],
    ["e1000", "E1000"],
  ])("%s → %s", (value, name) => expect(enumValueName(value)).toBe(name));
});

describe("docs/resources.md", () => {
  test("states what changing an input does", () => {
    const docs = generatedFiles(root)["docs/resources.md"];
    expect(docs).toMatch(/\| cpuCores \| integer \|.*\| in place; power cycle \|/);
    expect(docs).toMatch(/\| disksize \| integer \|.*\| grows in place; smaller \*\*replaces\*\* \|/);
    expect(docs).toMatch(/\| cluster \| string \|.*\| used at creation only \|/);
  });
});
