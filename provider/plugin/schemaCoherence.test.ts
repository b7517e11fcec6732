// The plugin serves exactly what schema.json (generated from the zod schemas) declares.
import type { z } from "zod";
import { RESOURCE_LIST } from "../resources";
import { loadSchema } from "./schema";
import { VplatformProvider } from "./vplatformProvider";

const { schema } = loadSchema();
const served = new VplatformProvider();
const token = (name: string) => `${schema.name}:index:${name}`;
const inputNames = (s: z.ZodType) => Object.keys((s as unknown as { shape: Record<string, unknown> }).shape).sort();

describe("the plugin and schema.json agree", () => {
  test("every resource token the plugin serves is in schema.json, and the reverse (its components aside)", () => {
    const resources = Object.entries(schema.resources).filter(([, r]) => !(r as { isComponent?: boolean }).isComponent);
    expect(served.resourceNames.map(token).sort()).toEqual(resources.map(([t]) => t).sort());
  });

  test("every function the plugin serves is in schema.json, and the reverse", () => {
    expect(served.functionNames.map(token).sort()).toEqual(Object.keys(schema.functions ?? {}).sort());
  });

  test.each(RESOURCE_LIST.map((r) => [r.token, r.operations] as const))(
    "%s: the inputs the plugin checks are schema.json's inputProperties, and the reverse",
    (name, ops) => {
      const declared = schema.resources[token(name)] as { inputProperties: Record<string, unknown> };
      expect(inputNames(ops.schema)).toEqual(Object.keys(declared.inputProperties).sort());
    },
  );

  test("the plugin reports the schema's version, which the engine compares with the SDK's", () => {
    expect(served.version).toBe(schema.version);
    expect(JSON.parse(served.schema).name).toBe("vplatform");
  });
});
