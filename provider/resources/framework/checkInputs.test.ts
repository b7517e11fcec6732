import { z } from "zod";
import { PREVIEW_UNKNOWN as UNKNOWN } from "../../schemas/normalize";
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
    expect(r).toEqual({
      ok: true,
      inputs: { name: "os", machine: UNKNOWN, tags: ["a", UNKNOWN], size: 10 },
      unknown: new Set(["machine", "tags"]),
    });
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

describe("cross-field rules with unknown inputs", () => {
  const refined = z
    .strictObject({
      media: z.string(),
      source: z.string().optional(),
      size: z.number().optional(),
      boot: z.boolean().optional(),
      uefi: z.boolean().optional(),
    })
    .superRefine((d, ctx) => {
      if (d.media === "disk" && d.size === undefined) ctx.addIssue({ code: "custom", path: ["size"], message: "a disk needs a size" });
    })
    .superRefine((d, ctx) => {
      if (d.boot && d.uefi !== true) ctx.addIssue({ code: "custom", path: ["boot"], message: "boot needs uefi" });
    });

  test("a rule over known fields still refuses when another field is unknown", () => {
    const r = checkInputs(refined, { media: "disk", source: UNKNOWN });
    expect(r).toEqual({ ok: false, failures: [{ property: "size", reason: "a disk needs a size" }] });
  });

  test("a rule that read an unknown field is not judged yet", () => {
    expect(checkInputs(refined, { media: "disk", size: 1, boot: true, uefi: UNKNOWN }).ok).toBe(true);
  });

  test("a required field that is unknown is no failure, and the rules run on the rest", () => {
    const r = checkInputs(refined, { media: UNKNOWN, boot: true });
    expect(r).toEqual({ ok: false, failures: [{ property: "boot", reason: "boot needs uefi" }] });
  });

  test("strictness survives: an unknown key is refused", () => {
    const r = checkInputs(refined, { media: "cdrom", source: UNKNOWN, colour: "red" });
    expect(r.ok).toBe(false);
  });

  test("the SDK's marker passes through beside __provider", () => {
    const r = checkInputs(refined, { media: "cdrom", __marker: "m1", __provider: "code" });
    expect(r).toEqual({ ok: true, inputs: { media: "cdrom", __marker: "m1" }, unknown: new Set() });
  });
});

describe("the resources' own cross-field rules at preview", () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { driveInputsSchema } = require("../drive/schema");
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { vnetInputsSchema } = require("../vnet/schema");

  test("a cdrom drive without mediaSource is refused while its machine is unknown", () => {
    const r = checkInputs(driveInputsSchema, { machine: UNKNOWN, media: "cdrom" });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.failures.map((f) => f.property)).toEqual(["mediaSource"]);
  });

  test("a disk without disksize is refused while its machine is unknown", () => {
    const r = checkInputs(driveInputsSchema, { machine: UNKNOWN, media: "disk" });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.failures.map((f) => f.property)).toEqual(["disksize"]);
  });

  test("a CIDR with two prefixes is refused", () => {
    const r = checkInputs(vnetInputsSchema, { name: "n", network: "10.0.0.0/24/8" });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.failures.map((f) => f.property)).toEqual(["network"]);
  });
});
