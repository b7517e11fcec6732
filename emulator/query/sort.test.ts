import { QueryError } from "./errors";
import { compareBy, parseSort, sortRows, type SortKey } from "./sort";

type Row = Record<string, unknown>;
const valueAt = (row: Row, path: string[]) => path.reduce<unknown>((value, key) => (value == null ? undefined : (value as Row)[key]), row);
const sortedNames = (rows: Row[], sort: string) => sortRows(rows, parseSort(sort), valueAt).map((row) => row.name);

describe("parseSort reads comma lists of optionally signed fields", () => {
  test.each<[string, SortKey[]]>([
    ["", []],
    ["  ", []],
    ["name", [{ field: ["name"], descending: false }]],
    ["+name", [{ field: ["name"], descending: false }]],
    ["-created", [{ field: ["created"], descending: true }]],
    [" name", [{ field: ["name"], descending: false }]], // an undecoded '+' arrives as a space
    [
      "+orderid,-timestamp",
      [
        { field: ["orderid"], descending: false },
        { field: ["timestamp"], descending: true },
      ],
    ],
    [
      " - created , + name ",
      [
        { field: ["created"], descending: true },
        { field: ["name"], descending: false },
      ],
    ],
    ["-machine#status#node", [{ field: ["machine", "status", "node"], descending: true }]],
    ["$key", [{ field: ["$key"], descending: false }]],
  ])("%j", (text, expected) => expect(parseSort(text)).toEqual(expected));

  test.each([
    ["name,", "sort: empty sort field at 5"],
    ["-", "sort: empty sort field at 0"],
    ["name, -", "sort: empty sort field at 6"],
    ["a##b", "sort: invalid field 'a##b' at 0"],
    ["name desc", "sort: invalid field 'name desc' at 0"],
    ["name,+na(me)", "sort: invalid field 'na(me)' at 5"],
  ])("%j is refused: %s", (text, message) => {
    expect(() => parseSort(text)).toThrow(QueryError);
    expect(() => parseSort(text)).toThrow(message);
  });
});

describe("ascending order: nulls first, numbers numerically (numeric strings too), text by code units", () => {
  test("numbers and numeric strings", () => {
    const rows = [
      { name: "a", k: "10" },
      { name: "b", k: 9 },
      { name: "c", k: "100" },
      { name: "d", k: "2" },
    ];
    expect(sortedNames(rows, "k")).toEqual(["d", "b", "a", "c"]);
  });

  test("nulls and missing values first ascending, last descending", () => {
    const rows = [{ name: "a", k: 2 }, { name: "b", k: null }, { name: "c", k: 1 }, { name: "d" }];
    expect(sortedNames(rows, "+k")).toEqual(["b", "d", "c", "a"]);
    expect(sortedNames(rows, "-k")).toEqual(["a", "c", "b", "d"]);
  });

  test("text", () => {
    const rows = [{ name: "web2" }, { name: "Web1" }, { name: "db" }, { name: "web10" }];
    expect(sortedNames(rows, "name")).toEqual(["Web1", "db", "web10", "web2"]);
    expect(sortedNames(rows, "-name")).toEqual(["web2", "web10", "db", "Web1"]);
  });

  test("booleans: false before true", () => {
    const rows = [
      { name: "a", on: true },
      { name: "b", on: false },
      { name: "c", on: "false" },
    ];
    expect(sortedNames(rows, "on")).toEqual(["b", "c", "a"]);
  });

  test("mixed kinds order null < boolean < number < text < other", () => {
    const rows = [
      { name: "obj", k: { a: 1 } },
      { name: "text", k: "x" },
      { name: "num", k: 3 },
      { name: "bool", k: true },
      { name: "null", k: null },
    ];
    expect(sortedNames(rows, "k")).toEqual(["null", "bool", "num", "text", "obj"]);
  });
});

describe("sorting is stable and uses later keys for ties", () => {
  const rows = [
    { name: "a", tier: 2, created: 5 },
    { name: "b", tier: 1, created: 5 },
    { name: "c", tier: 2, created: 7 },
    { name: "d", tier: 1, created: 5 },
  ];

  test("ties keep the table order", () => {
    expect(sortedNames(rows, "tier")).toEqual(["b", "d", "a", "c"]);
    expect(sortedNames(rows, "-created")).toEqual(["c", "a", "b", "d"]);
  });

  test("a second key breaks ties", () => {
    expect(sortedNames(rows, "tier,-created")).toEqual(["b", "d", "c", "a"]);
    expect(sortedNames(rows, "-tier,+created")).toEqual(["a", "c", "b", "d"]);
  });

  test("no keys keep the order (as a copy)", () => {
    const result = sortRows(rows, [], valueAt);
    expect(result).toEqual(rows);
    expect(result).not.toBe(rows);
  });
});

describe("sorting follows # joins", () => {
  test("by a joined field", () => {
    const rows = [
      { name: "a", machine: { status: { node: 3 } } },
      { name: "b", machine: { status: { node: 1 } } },
      { name: "c", machine: null },
    ];
    expect(sortedNames(rows, "machine#status#node")).toEqual(["c", "b", "a"]);
  });
});

describe("compareBy is a comparator for Array.prototype.sort", () => {
  const keys = parseSort("-ram,name");
  const compare = (a: Row, b: Row) =>
    compareBy(
      keys,
      (p) => valueAt(a, p),
      (p) => valueAt(b, p),
    );

  test("sign follows the keys", () => {
    expect(compare({ ram: 2 }, { ram: 1 })).toBeLessThan(0);
    expect(compare({ ram: 1 }, { ram: 2 })).toBeGreaterThan(0);
    expect(compare({ ram: 1, name: "a" }, { ram: 1, name: "b" })).toBeLessThan(0);
    expect(compare({ ram: 1, name: "a" }, { ram: "1", name: "a" })).toBe(0);
  });

  test("gives the same order as sortRows", () => {
    const rows = [
      { name: "x", ram: 1 },
      { name: "y", ram: 4 },
      { name: "a", ram: 1 },
      { name: "b", ram: null },
    ];
    expect([...rows].sort(compare)).toEqual(sortRows(rows, keys, valueAt));
  });
});
