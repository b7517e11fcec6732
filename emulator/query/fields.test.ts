import { QueryError } from "./errors";
import { parseFields, type FieldSelection } from "./fields";

const field = (path: string[], alias: string, extra: Partial<Extract<FieldSelection, { kind: "field" }>> = {}): FieldSelection => ({
  kind: "field",
  path,
  alias,
  ...extra,
});
const errorOf = (text: string): QueryError => {
  try {
    parseFields(text);
  } catch (error) {
    return error as QueryError;
  }
  throw new Error(`expected '${text}' to be refused`);
};

describe("an empty option selects nothing (the server's default view applies)", () => {
  test.each(["", "  "])("%j", (text) => expect(parseFields(text)).toEqual([]));
});

describe("plain fields are a comma list; the alias defaults to the last path segment", () => {
  test("names", () => {
    expect(parseFields("name,ram,$key")).toEqual([field(["name"], "name"), field(["ram"], "ram"), field(["$key"], "$key")]);
  });

  test("whitespace around entries is ignored", () => {
    expect(parseFields(" name , ram ")).toEqual([field(["name"], "name"), field(["ram"], "ram")]);
  });

  test("names may hold digits, dashes and dots", () => {
    expect(parseFields("ip-addresses,v1.x")).toEqual([field(["ip-addresses"], "ip-addresses"), field(["v1.x"], "v1.x")]);
  });
});

describe("views", () => {
  test.each(["all", "most", "summary", "dashboard"])("%s is a view", (view) => {
    expect(parseFields(view)).toEqual([{ kind: "view", view }]);
  });

  test("views are case-insensitive and mix with fields", () => {
    expect(parseFields("MOST,machine#status#status as status")).toEqual([
      { kind: "view", view: "most" },
      field(["machine", "status", "status"], "status"),
    ]);
  });

  test("a view cannot be renamed", () => {
    expect(errorOf("most as m").message).toBe("fields: view 'most' cannot have an alias at 0");
  });

  test("a word that only starts like a view is a field", () => {
    expect(parseFields("allow_hotplug,mostly")).toEqual([field(["allow_hotplug"], "allow_hotplug"), field(["mostly"], "mostly")]);
  });
});

describe("aliases rename with 'as'", () => {
  test.each([
    ["name as vm_name", field(["name"], "vm_name")],
    ["name AS vm_name", field(["name"], "vm_name")],
    ["name   as   vm_name", field(["name"], "vm_name")],
    ["$key as sch_$key", field(["$key"], "sch_$key")],
    ["asset", field(["asset"], "asset")],
    ["as as as", field(["as"], "as")],
  ])("%s", (text, expected) => expect(parseFields(text)).toEqual([expected]));

  test("'as' needs an alias", () => {
    expect(errorOf("name as ").message).toBe("fields: end of fields (expected an alias after 'as') at 8");
    expect(errorOf("name as ,x").message).toBe("fields: unexpected ',' (expected an alias after 'as') at 8");
  });
});

describe("# paths follow joins", () => {
  test.each([
    ["machine#status#status as operation_status", field(["machine", "status", "status"], "operation_status")],
    ["owner#$display as owner_display", field(["owner", "$display"], "owner_display")],
    ["machine#status#node#name", field(["machine", "status", "node", "name"], "name")],
    ["user#name as user_name", field(["user", "name"], "user_name")],
  ])("%s", (text, expected) => expect(parseFields(text)).toEqual([expected]));

  test.each(["a##b", "#a", "a#"])("empty segments are refused: %s", (text) => {
    expect(errorOf(text).message).toBe(`fields: invalid field path '${text}' at 0`);
  });
});

describe("sub-field lists select fields of related rows; their commas do not split", () => {
  test("a view inside brackets", () => {
    expect(parseFields("groups[all] as all_groups")).toEqual([field(["groups"], "all_groups", { sub: [{ kind: "view", view: "all" }] })]);
  });

  test("a field list inside brackets", () => {
    expect(parseFields("name,drives[name,disksize],ram")).toEqual([
      field(["name"], "name"),
      field(["drives"], "drives", { sub: [field(["name"], "name"), field(["disksize"], "disksize")] }),
      field(["ram"], "ram"),
    ]);
  });

  test("lists nest and hold any field form", () => {
    expect(parseFields("machine[drives[name as n, status#status], count(nics) as nic_count]")).toEqual([
      field(["machine"], "machine", {
        sub: [
          field(["drives"], "drives", { sub: [field(["name"], "n"), field(["status", "status"], "status")] }),
          field(["nics"], "nic_count", { fn: "count" }),
        ],
      }),
    ]);
  });

  test("whitespace before the bracket is tolerated", () => {
    expect(parseFields("drives [name]")).toEqual([field(["drives"], "drives", { sub: [field(["name"], "name")] })]);
  });

  test.each([
    ["drives[name", "fields: end of fields (expected ',' or ']') at 11"],
    ["drives[]", "fields: unexpected ']' (expected a field name) at 7"],
    ["drives[name]]", "fields: unexpected ']' (expected ',') at 12"],
  ])("unbalanced or empty brackets are refused: %s", (text, message) => expect(errorOf(text).message).toBe(message));
});

describe("functions apply to a field: fn(path) and prefix#fn(path)", () => {
  test.each([
    ["count(members) as member_count", field(["members"], "member_count", { fn: "count" })],
    ["display(task) as task_display", field(["task"], "task_display", { fn: "display" })],
    ["status#display(status) as status_display", field(["status", "status"], "status_display", { fn: "display" })],
    ["datetime(created)", field(["created"], "created", { fn: "datetime" })],
    ["sum(drives#disksize) as total", field(["drives", "disksize"], "total", { fn: "sum" })],
    ["COUNT(members)", field(["members"], "members", { fn: "count" })],
    ["count( members ) as n", field(["members"], "n", { fn: "count" })],
    ["count (members)", field(["members"], "members", { fn: "count" })],
  ])("%s", (text, expected) => expect(parseFields(text)).toEqual([expected]));

  test.each([
    "collapse",
    "datetime",
    "upper",
    "lower",
    "count",
    "diskspace",
    "display",
    "hex",
    "sha1",
    "sum",
    "avg",
    "min",
    "max",
    "flatten",
  ])("%s is known", (fn) => expect(parseFields(`${fn}(x)`)).toEqual([field(["x"], "x", { fn })]));

  test("further arguments are kept as text, quotes removed", () => {
    expect(parseFields("datetime(created, 'Y-m-d', utc) as day")).toEqual([
      field(["created"], "day", { fn: "datetime", fnArgs: ["Y-m-d", "utc"] }),
    ]);
    expect(parseFields("upper(name,'it''s, ok')")).toEqual([field(["name"], "name", { fn: "upper", fnArgs: ["it's, ok"] })]);
  });

  test("flatten takes a sub-field list", () => {
    expect(parseFields("flatten(schedule[$key as sch_$key,name as sch_name]),task")).toEqual([
      field(["schedule"], "schedule", { fn: "flatten", sub: [field(["$key"], "sch_$key"), field(["name"], "sch_name")] }),
      field(["task"], "task"),
    ]);
  });

  test("commas inside parentheses do not split the list", () => {
    expect(parseFields("a,max(b, 'x,y'),c").map((entry) => (entry.kind === "field" ? entry.alias : entry.view))).toEqual(["a", "b", "c"]);
  });

  test.each([
    ["bogus(x)", "fields: unknown function 'bogus' at 0"],
    ["a#bogus(x)", "fields: unknown function 'bogus' at 0"],
    ["upper(lower(x))", "fields: functions cannot be nested at 6"],
    ["count(members", "fields: end of fields (expected ',' or ')') at 13"],
    ["count()", "fields: unexpected ')' (expected a field name) at 6"],
    ["upper(x, 'open)", "fields: unterminated string at 9"],
    ["upper(x y)", "fields: unexpected 'y' (expected ',' or ')') at 8"],
  ])("%s is refused", (text, message) => expect(errorOf(text).message).toBe(message));
});

describe("malformed lists throw QueryError with the position", () => {
  test.each([
    [",name", "fields: unexpected ',' (expected a field name) at 0"],
    ["name,", "fields: end of fields (expected a field name) at 5"],
    ["name,,ram", "fields: unexpected ',' (expected a field name) at 5"],
    ["name ram", "fields: unexpected 'ram' (expected ',') at 5"],
    ["name;ram", "fields: unexpected ';' (expected ',') at 4"],
    ["na!me", "fields: unexpected '!' (expected ',') at 2"],
  ])("%j → %s", (text, message) => {
    const error = errorOf(text);
    expect(error).toBeInstanceOf(QueryError);
    expect(error.part).toBe("fields");
    expect(error.message).toBe(message);
  });
});

describe("the forms real clients send parse together", () => {
  test("a vms read with joins", () => {
    const text =
      "$key,name,machine,machine#status#status as status,machine#status#running as running,machine#status#node#name as node_name,owner#$display as owner_display";
    expect(parseFields(text).map((entry) => (entry.kind === "field" ? `${entry.path.join("#")}→${entry.alias}` : entry.view))).toEqual([
      "$key→$key",
      "name→name",
      "machine→machine",
      "machine#status#status→status",
      "machine#status#running→running",
      "machine#status#node#name→node_name",
      "owner#$display→owner_display",
    ]);
  });
});
