import { z } from "zod";
import { PREVIEW_UNKNOWN as UNKNOWN } from "../schemas/normalize";
import { checkInputs, plainJson } from "./checkInputs";

const schema = z.object({
  name: z.string().min(1),
  machine: z.string().regex(/^\d+$/),
  size: z.number().int().positive().default(10),
  tags: z.array(z.string()).optional(),
});

describe("checkInputs", () => {
  test("validates, applies defaults and drops __provider", () => {
    const r = checkInputs(schema, { name: "os", machine: "54", __provider: "code" });
    expect(r).toEqual({ ok: true, inputs: { name: "os", machine: "54", size: 10 }, unknown: new Set() });
  });

  test("reports failures as {property, reason} naming the field", () => {
    const r = checkInputs(schema, { name: "", machine: "abc" });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.failures.map((f) => f.property).sort()).toEqual(["machine", "name"]);
  });

  test("unknown values during preview are passed through, not validated", () => {
    const r = checkInputs(schema, { name: "os", machine: UNKNOWN, tags: ["a", UNKNOWN] });
    expect(r).toEqual({ ok: true, inputs: { name: "os", machine: UNKNOWN, tags: ["a", UNKNOWN], size: 10 }, unknown: new Set(["machine", "tags"]) });
  });

  test("known fields are still validated when others are unknown", () => {
    const r = checkInputs(schema, { name: "", machine: UNKNOWN });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.failures).toEqual([expect.objectContaining({ property: "name" })]);
  });
});

describe("plainJson", () => {
  test("drops undefined fields so outputs serialize", () => {
    expect(plainJson({ a: 1, b: undefined, c: { d: undefined } })).toEqual({ a: 1, c: {} });
  });
});
