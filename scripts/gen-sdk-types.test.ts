// sdk/schemaTypes.generated.ts and env/environmentTypes.generated.ts are the zod
// schemas' input/output types written out as plain TypeScript: they must be
// current, and mean exactly what the schemas mean.
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import {
  compileProbe,
  computedName,
  ENVIRONMENT_TYPES_FILE,
  environmentTypesFile,
  GENERATED_FILE,
  inName,
  lookupArgsName,
  lookupResultName,
  outName,
  schemaTargets,
  SDK_CLASSES_FILE,
  SDK_LOOKUPS_FILE,
  sdkClassesFile,
  sdkLookupsFile,
  sdkTypesFile,
} from "./gen-sdk-types";
import { LOOKUP_FUNCTIONS } from "../provider/resources/lookupFunctions";
import { RESOURCE_LIST } from "../provider/resources";

const root = path.resolve(__dirname, "..");
const committed = fs.readFileSync(path.join(root, GENERATED_FILE), "utf8");

describe("the committed plain SDK types", () => {
  test(`${GENERATED_FILE} is what the zod schemas generate (run \`npm run build && node dist/scripts/gen-sdk-types.js\`)`, () => {
    expect(committed).toBe(sdkTypesFile(root));
  }, 60_000);

  test("import nothing: no zod, no provider code", () => {
    expect(ts.preProcessFile(committed, true, true).importedFiles).toEqual([]);
  });

  test("each generated type and z.input / z.output of its schema (and the declared computed outputs, and each look-up's declared outputs) are assignable both ways", () => {
    const targets = schemaTargets(root);
    const source = [
      `import type { z } from "zod";`,
      `import type * as T from "../sdk/schemaTypes.generated";`,
      `import type { OutputValues } from "../provider/schemas/outputs";`,
      `import type { LookupArgsOf, LookupResultOf } from "../provider/resources/lookupFunctions";`,
      ...targets.map((t) => `import { ${[t.exportName, t.outputsExport].filter(Boolean).join(", ")} } from "../${t.module}";`),
      `type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;`,
      ...targets.flatMap((t) => [
        `export const ${inName(t.token)}: Same<T.${inName(t.token)}, z.input<typeof ${t.exportName}>> = true;`,
        `export const ${outName(t.token)}: Same<T.${outName(t.token)}, z.output<typeof ${t.exportName}>> = true;`,
        ...(t.outputsExport
          ? [`export const ${computedName(t.token)}: Same<T.${computedName(t.token)}, OutputValues<typeof ${t.outputsExport}>> = true;`]
          : []),
      ]),
      ...LOOKUP_FUNCTIONS.flatMap((fn) => [
        `export const ${lookupArgsName(fn.name)}: Same<T.${lookupArgsName(fn.name)}, LookupArgsOf["${fn.name}"]> = true;`,
        `export const ${lookupResultName(fn.name)}: Same<T.${lookupResultName(fn.name)}, LookupResultOf["${fn.name}"]> = true;`,
      ]),
    ].join("\n");
    expect(targets.map((t) => t.token)).toEqual(RESOURCE_LIST.map((r) => r.token)); // every resource has its types
    expect(targets.filter((t) => t.outputsExport).map((t) => t.token)).toEqual([
      "VirtualMachine",
      "Device",
      "Vnet",
      "VmSnapshot",
      "VmPower",
      "ApiKey",
    ]);
    expect(() => compileProbe(root, source)).not.toThrow();
  }, 60_000);
});

describe("the committed SDK classes", () => {
  test(`${SDK_CLASSES_FILE} is what the resource list generates (run \`npm run build && node dist/scripts/gen-sdk-types.js\`)`, () => {
    expect(fs.readFileSync(path.join(root, SDK_CLASSES_FILE), "utf8")).toBe(sdkClassesFile(RESOURCE_LIST));
  });
});

describe("a declaration's SDK behaviour shapes its generated class", () => {
  const declared = (sdk: object, outputs = {}) => sdkClassesFile([{ token: "Widget", description: "A widget.", outputs, sdk }]);

  test("hardware on a machine takes and echoes the branded machine key", () => {
    const text = declared({ onMachine: true, refuseDuplicateNames: "onMachine" });
    expect(text).toContain("export type WidgetArgs = Args<OnMachine<T.WidgetInputs>>;");
    expect(text).toContain("export interface Widget extends Outputs<OnMachine<T.WidgetValues>> {}");
  });

  test("a machine's owner registers itself once constructed; others do not", () => {
    const constructed = `super("Widget", name, args, opts);\n    ownMachine(this, args);\n  }`;
    expect(declared({ ownsMachine: true })).toContain(constructed);
    expect(declared({})).not.toContain("ownMachine(this");
  });

  test("hardware registers itself with its machine once constructed (its VM's start may wait for it); others do not", () => {
    const constructed = `super("Widget", name, args, opts);\n    onMachine(this, args);\n  }`;
    expect(declared({ onMachine: true })).toContain(constructed);
    expect(declared({})).not.toContain("onMachine(this");
  });

  test("declared computed outputs are typed as computed (machine keys branded), besides the echoed inputs", () => {
    expect(declared({}, { serial: { type: "string", description: "s" } })).toContain(
      "export interface Widget extends Outputs<T.WidgetValues & Computed<T.WidgetComputed>> {}",
    );
    expect(declared({})).toContain("export interface Widget extends Outputs<T.WidgetValues> {}");
  });

  test("the description is the class's doc comment, wrapped under 140 characters a line", () => {
    expect(declared({})).toContain("/** A widget. */\nexport class Widget extends DeclaredResource {");
    const long = sdkClassesFile([{ token: "Widget", description: "word ".repeat(60).trim(), outputs: {}, sdk: {} }]);
    expect(Math.max(...long.split("\n").map((l) => l.length))).toBeLessThan(140);
    expect(long).toContain(" * word word");
  });
});

describe("the committed SDK look-ups", () => {
  test(`${SDK_LOOKUPS_FILE} is what the look-up declarations generate (run \`npm run build && node dist/scripts/gen-sdk-types.js\`)`, () => {
    expect(fs.readFileSync(path.join(root, SDK_LOOKUPS_FILE), "utf8")).toBe(sdkLookupsFile(LOOKUP_FUNCTIONS));
  });
});

describe("a look-up's declaration makes its SDK function and its Output twin", () => {
  const generated = (usage?: string) => sdkLookupsFile([{ name: "getWidget", description: "The widget with this name.", usage }]);

  test("typed by the generated argument and result types", () => {
    expect(generated()).toContain('export const getWidget = lookup<T.GetWidgetArgs, T.GetWidgetResult>("getWidget");');
    expect(generated()).toContain('export const getWidgetOutput = outputOf<T.GetWidgetArgs, T.GetWidgetResult>("getWidget");');
  });

  test("the description, then the usage, is the function's doc comment", () => {
    expect(generated()).toContain("/** The widget with this name. */\nexport const getWidget =");
    expect(generated("Attach it with `new Gadget({ widget: w.id })`.")).toContain(
      "/** The widget with this name. Attach it with `new Gadget({ widget: w.id })`. */\nexport const getWidget =",
    );
  });
});

describe("the committed plain environment type", () => {
  const environmentTypes = fs.readFileSync(path.join(root, ENVIRONMENT_TYPES_FILE), "utf8");

  test(`${ENVIRONMENT_TYPES_FILE} is what the environment schema generates`, () => {
    expect(environmentTypes).toBe(environmentTypesFile(root));
  }, 60_000);

  test("imports only the SDK's plain types (no zod, no provider code)", () => {
    expect(ts.preProcessFile(environmentTypes, true, true).importedFiles.map((f) => f.fileName)).toEqual(["../sdk/schemaTypes.generated"]);
  });

  test("an entry that is a resource's own schema is written as the SDK's type, and keeps each field's description", () => {
    expect(environmentTypes).toContain("    vnets: VnetValues[];");
    const { program, file } = compileProbe(
      root,
      [
        `import type { Environment } from "../env/environmentTypes.generated";`,
        `declare const env: Environment;`,
        `export const field = env.vms[0].drives[0].interface;`,
      ].join("\n"),
    );
    const checker = program.getTypeChecker();
    let access: ts.PropertyAccessExpression | undefined;
    const visit = (node: ts.Node): void => {
      if (ts.isPropertyAccessExpression(node) && node.name.text === "interface") access = node;
      else ts.forEachChild(node, visit);
    };
    visit(file);
    const doc = ts.displayPartsToString(checker.getSymbolAtLocation(access!.name)?.getDocumentationComment(checker));
    expect(doc).toBe("Drive interface");
  }, 60_000);

  test("and z.output of the environment schema are assignable both ways", () => {
    const source = [
      `import type { z } from "zod";`,
      `import type { Environment } from "../env/environmentTypes.generated";`,
      `import type { environmentSchema } from "../env/environment-schema";`,
      `type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;`,
      `export const same: Same<Environment, z.output<typeof environmentSchema>> = true;`,
    ].join("\n");
    expect(() => compileProbe(root, source)).not.toThrow();
  }, 60_000);
});
