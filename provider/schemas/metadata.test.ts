// The metadata beside each field (description, api, kind, onChange, createOnly, compare,
// secret) is read by the plan, check(), schema.json and docs/resources.md: these rules keep
// it coherent. Generated from the registry, so a new resource or field is covered at once.
import { z } from "zod";
import { fieldMeta, type ApiKind, type ChangeEffect, type FieldMeta, type Shape } from "./common";
import { RESOURCE_LIST } from "../resources";
import { cloneFromShape } from "../resources/virtualMachine/schema";

const shapes: [string, Shape][] = [
  ...RESOURCE_LIST.map((r) => [r.token, r.inputs.shape as Shape] as [string, Shape]),
  ["VirtualMachine.cloneFrom", cloneFromShape],
];
const fields = shapes.flatMap(([resource, shape]) =>
  Object.entries(shape).map(([field, schema]) => [`${resource}.${field}`, fieldMeta(schema) ?? ({} as FieldMeta)] as const),
);
const mapped = fields.filter(([, m]) => m.api !== undefined);
const withMeta = (pick: (m: FieldMeta) => boolean) => {
  const rows = fields.filter(([, m]) => pick(m));
  return rows.length ? rows : ([["(none)", {} as FieldMeta]] as const);
};

const KINDS: ApiKind[] = ["string", "int", "bool", "stringBool", "key", "stringInt", "json"];
const EFFECTS: ChangeEffect[] = ["update", "replace", "powerCycle", "nextStart", "growOnly", "action", "control"];

describe("every input, at any depth, has a description (schema.json and docs/resources.md show it)", () => {
  /** Every property of the input's JSON Schema, nested objects and array items included. */
  function undescribed(name: string, js: Record<string, unknown>): string[] {
    const own = js.description ? [] : [name];
    const props = (js.properties ?? (js.items as Record<string, unknown> | undefined)?.properties ?? {}) as Record<
      string,
      Record<string, unknown>
    >;
    const inner = Object.entries(props).flatMap(([k, p]) => undescribed(`${name}.${k}`, p));
    const anyOf = ((js.anyOf ?? []) as Record<string, unknown>[])
      .filter((a) => a.properties)
      .flatMap((a) => undescribed(name, { ...a, description: "-" }));
    return [...own, ...inner, ...anyOf];
  }
  const all = shapes.flatMap(([resource, shape]) =>
    Object.entries(shape).flatMap(([field, schema]) =>
      undescribed(`${resource}.${field}`, z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>),
    ),
  );
  test("no input lacks a description", () => expect(all).toEqual([]));
});

describe("kinds and change effects are ones the mapping and the plan know", () => {
  test.each(mapped)("%s has a known API kind", (_id, m) => expect(KINDS).toContain(m.kind));
  test.each(fields.filter(([, m]) => m.onChange !== undefined))("%s has a known change effect", (_id, m) =>
    expect(EFFECTS).toContain(m.onChange),
  );
});

describe("an input the platform never sees (no API name) is never changed in place through the API", () => {
  // (the fields of cloneFrom follow cloneFrom, which is replaced as a whole)
  const topLevel = fields.filter(([id]) => !id.startsWith("VirtualMachine.cloneFrom."));
  test.each(topLevel.filter(([, m]) => m.api === undefined))("%s: control, action or replace", (_id, m) => {
    expect(["control", "action", "replace"]).toContain(m.onChange);
  });
  test.each(withMeta((m) => m.onChange === "control"))("%s (control) has no API name, so it is never sent", (_id, m) =>
    expect(m.api).toBeUndefined(),
  );
});

describe("a create-only field is never marked as changing in place (PUT bodies leave it out)", () => {
  test.each(withMeta((m) => m.createOnly === true))("%s", (_id, m) => {
    expect(m.api).toBeDefined();
    expect(["powerCycle", "nextStart", "growOnly"]).not.toContain(m.onChange);
  });
  test("hardware moves to another machine by replacement", () => {
    const machines = fields.filter(([id]) => /^(Drive|Nic|Device)\.machine$/.test(id));
    expect(machines.map(([id, m]) => [id, m.createOnly, m.onChange])).toEqual([
      ["Drive.machine", true, "replace"],
      ["Nic.machine", true, "replace"],
      ["Device.machine", true, "replace"],
    ]);
  });
});

describe("special comparisons and flags sit on fields of the right kind", () => {
  test.each(withMeta((m) => m.onChange === "growOnly"))("%s (growOnly) is an integer", (_id, m) => expect(m.kind).toBe("int"));
  test.each(withMeta((m) => m.compare === "mac"))("%s (compare mac) is a string", (_id, m) => expect(m.kind).toBe("string"));
  test.each(withMeta((m) => m.compare === "machineType"))("%s (compare machineType) is the machine type", (_id, m) =>
    expect(m.api).toBe("machine_type"),
  );
  // A credential with a type (a webhook's authorization) is json; its secret parts ride inside it.
  test.each(withMeta((m) => m.secret === true))("%s (secret) is a string or json sent to the API", (_id, m) => {
    expect(m.api).toBeDefined();
    expect(["string", "json"]).toContain(m.kind);
  });
});

describe("what a description promises, the change effect does", () => {
  const promises: [RegExp, ChangeEffect[]][] = [
    [/replaces|REPLACES/, ["replace", "growOnly"]],
    [/power cycle/, ["powerCycle"]],
    [/next start/, ["nextStart"]],
  ];
  const rows = mapped.flatMap(([id, m]) =>
    promises.filter(([re]) => re.test(m.description)).map(([re, effects]) => [id, re.source, effects, m] as const),
  );
  test("descriptions make such promises (sanity)", () => expect(rows.length).toBeGreaterThan(15));
  test.each(rows)("%s says /%s/", (_id, _re, effects, m) => expect(effects).toContain(m.onChange));
});

describe("every optional input says what removing it does, and says it truly", () => {
  const inputs = shapes.flatMap(([resource, shape]) =>
    Object.entries(shape).map(([field, schema]) => [`${resource}.${field}`, schema, fieldMeta(schema)] as const),
  );
  const optional = inputs.filter(([, schema]) => schema.safeParse(undefined).success);
  test.each(optional)("%s: reset to its default if it has one, else kept and unmanaged", (_id, schema, meta) => {
    expect(meta?.whenRemoved).toBe(schema.safeParse(undefined).data === undefined ? "unmanaged" : "default");
  });
  test.each(inputs.filter(([, schema]) => !schema.safeParse(undefined).success))(
    "%s is required: it cannot be removed",
    (_id, _schema, meta) => {
      expect(meta?.whenRemoved).toBeUndefined();
    },
  );
});
