import {
  PREVIEW_UNKNOWN,
  containsPreviewUnknown,
  jsonEqual,
  machineTypeFamily,
  normalizeMac,
  sameMachineType,
  toBoolean,
  toKey,
  toNumber,
} from "./normalize";

describe("booleans from the API", () => {
  test.each([true, "true", "True", 1, "1"])("%p reads as true", (v) => expect(toBoolean(v)).toBe(true));
  test.each([false, "false", 0, "0", ""])("%p reads as false", (v) => expect(toBoolean(v)).toBe(false));
  test("anything else is left for validation to reject", () => expect(toBoolean("maybe")).toBe("maybe"));
});

describe("numbers from the API", () => {
  test("numeric strings become numbers", () => {
    expect(toNumber("1024")).toBe(1024);
    expect(toNumber("-3")).toBe(-3);
    expect(toNumber("1.5")).toBe(1.5);
  });
  test("numbers and non-numeric strings are unchanged", () => {
    expect(toNumber(4)).toBe(4);
    expect(toNumber("4 cores")).toBe("4 cores");
    expect(toNumber("")).toBe("");
  });
});

describe("row keys", () => {
  test("integer keys become digit strings", () => expect(toKey(54)).toBe("54"));
  test("string keys are trimmed", () => expect(toKey(" 54 ")).toBe("54"));
  test("other values are unchanged", () => expect(toKey(null)).toBeNull());
});

describe("MAC addresses", () => {
  test("compare in lowercase", () => expect(normalizeMac("52:54:00:AB:CD:EF")).toBe("52:54:00:ab:cd:ef"));
});

describe("machine types", () => {
  test("families", () => {
    expect(machineTypeFamily("pc-q35-10.0")).toBe("q35");
    expect(machineTypeFamily("pc-i440fx-9.2")).toBe("pc");
    expect(machineTypeFamily("q35")).toBe("q35");
    expect(machineTypeFamily("microvm")).toBe("microvm");
  });
  test("q35 is any pc-q35 version and pc is any pc-i440fx version, both ways", () => {
    expect(sameMachineType("q35", "pc-q35-10.0")).toBe(true);
    expect(sameMachineType("pc-q35-10.0", "q35")).toBe(true);
    expect(sameMachineType("pc", "pc-i440fx-9.2")).toBe(true);
  });
  test("two explicit versions must be equal", () => {
    expect(sameMachineType("pc-q35-9.0", "pc-q35-10.0")).toBe(false);
    expect(sameMachineType("pc-q35-10.0", "pc-q35-10.0")).toBe(true);
  });
  test("different families differ", () => {
    expect(sameMachineType("q35", "pc-i440fx-9.2")).toBe(false);
    expect(sameMachineType("pc", "q35")).toBe(false);
  });
  test("unset only equals unset", () => {
    expect(sameMachineType(undefined, "q35")).toBe(false);
    expect(sameMachineType(undefined, undefined)).toBe(true);
  });
});

describe("JSON equality", () => {
  test("ignores object key order and undefined members", () => {
    expect(jsonEqual({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1, d: undefined })).toBe(true);
  });
  test("array order and lengths matter", () => {
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual([1], [1, 1])).toBe(false);
  });
  test("types matter", () => {
    expect(jsonEqual("1", 1)).toBe(false);
    expect(jsonEqual({}, [])).toBe(false);
    expect(jsonEqual(null, {})).toBe(false);
  });
});

describe("preview unknowns", () => {
  test("found at any depth", () => {
    expect(containsPreviewUnknown(PREVIEW_UNKNOWN)).toBe(true);
    expect(containsPreviewUnknown({ a: [{ b: PREVIEW_UNKNOWN }] })).toBe(true);
    expect(containsPreviewUnknown({ a: ["x"] })).toBe(false);
  });
});
