import { createHash } from "node:crypto";
import { QueryError } from "./errors";
import { applyFieldFunction } from "./field-functions";

describe("datetime turns Unix time into ISO 8601 UTC", () => {
  test.each([
    [0, "1970-01-01T00:00:00Z"],
    [1714564800, "2024-05-01T12:00:00Z"],
    ["1714564800", "2024-05-01T12:00:00Z"],
    [1714564800123, "2024-05-01T12:00:00Z"], // milliseconds
    [1714564800123456, "2024-05-01T12:00:00Z"], // microseconds (machine_logs)
  ])("%j → %s", (value, expected) => expect(applyFieldFunction("datetime", value)).toBe(expected));

  test("non-numeric values pass through; null stays null", () => {
    expect(applyFieldFunction("datetime", "soon")).toBe("soon");
    expect(applyFieldFunction("datetime", null)).toBeNull();
    expect(applyFieldFunction("datetime", undefined)).toBeNull();
  });
});

describe("diskspace turns bytes into binary units with up to two decimals", () => {
  test.each([
    [0, "0 B"],
    [1023, "1023 B"],
    [1024, "1 KB"],
    [1536, "1.5 KB"],
    [21474836480, "20 GB"],
    ["21474836480", "20 GB"],
    [1048576 * 1.333, "1.33 MB"],
    [1024 ** 4 * 3, "3 TB"],
    [1024 ** 5, "1 PB"],
    [-2048, "-2 KB"],
  ])("%j → %s", (value, expected) => expect(applyFieldFunction("diskspace", value)).toBe(expected));

  test("null stays null", () => expect(applyFieldFunction("diskspace", null)).toBeNull());
});

describe("hex writes integers in lower-case hex and other text as UTF-8 bytes", () => {
  test.each([
    [255, "ff"],
    ["4318", "10de"],
    [0, "0"],
    ["9007199254740993", "20000000000001"], // beyond double precision: exact via BigInt
    ["AB", "4142"],
    [1.5, "312e35"],
  ])("%j → %s", (value, expected) => expect(applyFieldFunction("hex", value)).toBe(expected));

  test("null stays null", () => expect(applyFieldFunction("hex", null)).toBeNull());
});

describe("sha1 is the hex SHA-1 of the value's text", () => {
  test.each([["abc"], [42], [{ a: 1 }]])("%j", (value) => {
    const text = typeof value === "object" ? JSON.stringify(value) : String(value);
    expect(applyFieldFunction("sha1", value)).toBe(createHash("sha1").update(text).digest("hex"));
  });

  test("known digest of 'abc'", () => expect(applyFieldFunction("sha1", "abc")).toBe("a9993e364706816aba3e25717850c26c9cd0d89d"));
  test("null stays null", () => expect(applyFieldFunction("sha1", null)).toBeNull());
});

describe("upper and lower change the case of text", () => {
  test.each([
    ["upper", "Web01", "WEB01"],
    ["lower", "Web01", "web01"],
    ["upper", 12, "12"],
    ["lower", true, "true"],
    ["upper", null, null],
  ])("%s(%j) → %j", (fn, value, expected) => expect(applyFieldFunction(fn, value)).toBe(expected));
});

describe("count counts list members", () => {
  test.each([
    [[1, 2, 3], 3],
    [[], 0],
    [null, 0],
    [undefined, 0],
    [{ a: 1, b: 2 }, 2],
    ["x", 1],
    [0, 1],
  ])("%j → %s", (value, expected) => expect(applyFieldFunction("count", value)).toBe(expected));
});

describe("sum avg min max aggregate the numeric members of a list", () => {
  const values = [4, "6", "x", null, 2];
  test.each([
    ["sum", 12],
    ["avg", 4],
    ["min", 2],
    ["max", 6],
  ])("%s", (fn, expected) => expect(applyFieldFunction(fn, values)).toBe(expected));

  test.each([
    ["sum", 0],
    ["avg", null],
    ["min", null],
    ["max", null],
  ])("%s of an empty list", (fn, expected) => expect(applyFieldFunction(fn, [])).toBe(expected));

  test("a single value is a list of one", () => {
    expect(applyFieldFunction("sum", 7)).toBe(7);
    expect(applyFieldFunction("max", "7")).toBe(7);
  });

  test("negative numbers", () => expect(applyFieldFunction("min", [-1, -5, 3])).toBe(-5));
});

describe("collapse joins rows into one comma list of keys or values", () => {
  test.each([
    [
      [
        { $key: 1, name: "a" },
        { $key: 2, name: "b" },
      ],
      "1,2",
    ],
    [[{ name: "a" }, { name: "b", size: 3 }], "a,b,3"],
    [["x", 5, null, true], "x,5,true"],
    [[], ""],
    [{ $key: 9 }, "9"],
    ["solo", "solo"],
    [[{ opts: { a: 1 } }], '{"a":1}'],
  ])("%j → %j", (value, expected) => expect(applyFieldFunction("collapse", value)).toBe(expected));

  test("null stays null", () => expect(applyFieldFunction("collapse", null)).toBeNull());
});

describe("display gives the display text", () => {
  test.each([
    [{ $display: "Alice", name: "alice", $key: 1 }, "Alice"],
    [{ name: "web01", $key: 4 }, "web01"],
    [{ $key: 4 }, "4"],
    [{}, null],
    ["running", "running"],
    [3, "3"],
    [null, null],
  ])("%j → %j", (value, expected) => expect(applyFieldFunction("display", value)).toBe(expected));

  test("a scalar takes its label from the schema list when given", () => {
    const labels = { running: "Running", stopped: "Stopped" };
    expect(applyFieldFunction("display", "running", { labels })).toBe("Running");
    expect(applyFieldFunction("display", "paused", { labels })).toBe("paused");
  });
});

describe("flatten removes one level of nesting", () => {
  test.each([
    [
      [[1, 2], [3], 4],
      [1, 2, 3, 4],
    ],
    [[[[1]]], [[1]]],
    [{ a: 1 }, { a: 1 }],
    [null, null],
  ])("%j → %j", (value, expected) => expect(applyFieldFunction("flatten", value)).toEqual(expected));
});

describe("function names", () => {
  test("are case-insensitive", () => expect(applyFieldFunction("UPPER", "a")).toBe("A"));

  test("unknown ones throw QueryError", () => {
    expect(() => applyFieldFunction("explode", 1)).toThrow(QueryError);
    expect(() => applyFieldFunction("explode", 1)).toThrow("fields: unknown function 'explode'");
    expect(() => applyFieldFunction("toString", 1)).toThrow(QueryError);
  });
});
