import { QueryError } from "./errors";
import { matchesFilter, parseFilter } from "./filter";

type Row = Record<string, unknown>;
const NOW = 1_700_000_000;
const resolverOf = (row: Row) => (path: string[]) =>
  path.reduce<unknown>((value, key) => (value == null ? undefined : (value as Row)[key]), row);
const matches = (filter: string, row: Row) => matchesFilter(parseFilter(filter), resolverOf(row), { now: NOW });
const errorOf = (filter: string): QueryError => {
  try {
    parseFilter(filter);
  } catch (error) {
    return error as QueryError;
  }
  throw new Error(`expected '${filter}' to be refused`);
};

describe("an empty filter matches every row", () => {
  test.each(["", "   "])("%j", (filter) => {
    expect(parseFilter(filter)).toEqual({ kind: "all" });
    expect(matches(filter, {})).toBe(true);
  });
});

describe("eq and ne compare values", () => {
  test.each([
    ["name eq 'web'", { name: "web" }, true],
    ["name eq 'web'", { name: "Web" }, false],
    ["name ne 'web'", { name: "web" }, false],
    ["name ne 'web'", { name: "db" }, true],
    ["ram eq 1024", { ram: 1024 }, true],
    ["ram eq 1024", { ram: 2048 }, false],
    ["ram ne 1024", { ram: 2048 }, true],
    ["ratio eq 1.5", { ratio: 1.5 }, true],
    ["delta eq -3", { delta: -3 }, true],
    ["missing eq 'x'", {}, false],
    ["missing ne 'x'", {}, true],
  ])("%s on %j → %s", (filter, row, expected) => expect(matches(filter, row)).toBe(expected));
});

describe("numbers compare numerically even when one side is a numeric string", () => {
  test.each([
    ["$key eq 5", { $key: "5" }, true],
    ["$key eq '5'", { $key: 5 }, true],
    ["$key eq 5", { $key: "05" }, true],
    ["cluster eq '1'", { cluster: "1" }, true],
    ["$key gt 9", { $key: "10" }, true],
    ["$key lt '9'", { $key: "10" }, false],
    ["size ge 1e3", { size: "1000" }, true],
    ["name eq 5", { name: "five" }, false],
    ["name gt 5", { name: "abc" }, true], // non-numeric text: compared as text ('a' > '5')
  ])("%s on %j → %s", (filter, row, expected) => expect(matches(filter, row)).toBe(expected));
});

describe("gt ge lt le order numbers and text", () => {
  test.each([
    ["ram gt 1024", 2048, true],
    ["ram gt 1024", 1024, false],
    ["ram ge 1024", 1024, true],
    ["ram ge 1024", 1023, false],
    ["ram lt 1024", 512, true],
    ["ram lt 1024", 1024, false],
    ["ram le 1024", 1024, true],
    ["ram le 1024", 1025, false],
  ])("%s with ram %s → %s", (filter, ram, expected) => expect(matches(filter, { ram })).toBe(expected));

  test("text orders by code units", () => {
    expect(matches("name gt 'b'", { name: "c" })).toBe(true);
    expect(matches("name lt 'b'", { name: "B" })).toBe(true);
    expect(matches("name le 'abc'", { name: "abc" })).toBe(true);
  });

  test("ordering against null or a missing value never matches", () => {
    expect(matches("ram gt 1", { ram: null })).toBe(false);
    expect(matches("ram lt 1", {})).toBe(false);
    expect(matches("ram gt null", { ram: 5 })).toBe(false);
  });
});

describe("null is comparable with eq and ne", () => {
  test.each([
    ["machine eq null", { machine: null }, true],
    ["machine eq null", {}, true],
    ["machine eq null", { machine: 0 }, false],
    ["machine eq null", { machine: "" }, false],
    ["machine ne null", { machine: 7 }, true],
    ["machine ne null", { machine: null }, false],
    ["machine eq NULL", { machine: null }, true],
  ])("%s on %j → %s", (filter, row, expected) => expect(matches(filter, row)).toBe(expected));
});

describe("booleans compare with true/false and the strings 'true'/'false'", () => {
  test.each([
    ["enabled eq true", { enabled: true }, true],
    ["enabled eq true", { enabled: false }, false],
    ["enabled eq false", { enabled: false }, true],
    ["enabled eq 'true'", { enabled: true }, true],
    ["enabled eq true", { enabled: "true" }, true],
    ["enabled eq TRUE", { enabled: "True" }, true],
    ["enabled eq false", { enabled: "false" }, true],
    ["enabled ne true", { enabled: false }, true],
    ["enabled eq true", { enabled: 1 }, false],
    ["enabled eq true", { enabled: "yes" }, false],
    ["enabled eq true", {}, false],
    ["is_snapshot eq false", { is_snapshot: false }, true],
  ])("%s on %j → %s", (filter, row, expected) => expect(matches(filter, row)).toBe(expected));
});

describe("bw and ew test the start and end of the text, case-sensitively", () => {
  test.each([
    ["name bw 'web'", "web01", true],
    ["name bw 'web'", "Web01", false],
    ["name bw 'web'", "01web", false],
    ["name ew '01'", "web01", true],
    ["name ew 'web'", "web01", false],
    ["name bw ''", "anything", true],
  ])("%s on %j → %s", (filter, name, expected) => expect(matches(filter, { name })).toBe(expected));

  test("numbers and booleans are tested as text; null never matches", () => {
    expect(matches("size bw 10", { size: 1024 })).toBe(true);
    expect(matches("enabled bw 'tr'", { enabled: true })).toBe(true);
    expect(matches("name bw ''", { name: null })).toBe(false);
    expect(matches("name bw 'a'", { name: { a: 1 } })).toBe(false);
  });
});

describe("ct contains case-insensitively, cs case-sensitively", () => {
  test.each([
    ["name ct 'EB0'", "web01", true],
    ["name ct 'eb0'", "WEB01", true],
    ["name ct 'xyz'", "web01", false],
    ["name cs 'eb0'", "web01", true],
    ["name cs 'EB0'", "web01", false],
    ["name CT 'WEB'", "my-web", true],
  ])("%s on %j → %s", (filter, name, expected) => expect(matches(filter, { name })).toBe(expected));
});

describe("like matches SQL patterns: % any run, _ one character, case-insensitive", () => {
  test.each([
    ["name like 'web%'", "web01", true],
    ["name like 'web%'", "WEB", true],
    ["name like 'web%'", "myweb", false],
    ["name like '%eb%'", "web01", true],
    ["name like 'web_1'", "web01", true],
    ["name like 'web_1'", "web001", false],
    ["name like 'a.c'", "abc", false],
    ["name like 'a.c'", "a.c", true],
    ["name like '100\\%'", "100%", true],
    ["name like '100\\%'", "1000", false],
    ["name like 'a\\_b'", "a_b", true],
    ["name like 'a\\_b'", "axb", false],
    ["name like '%'", "", true],
    ["note like 'line%'", "line one\nline two", true],
  ])("%s on %j → %s", (filter, name, expected) => expect(matches(filter, { name, note: name })).toBe(expected));
});

describe("rx matches a JavaScript regular expression", () => {
  test.each([
    ["name rx '^web\\d+$'", "web01", true],
    ["name rx '^web\\d+$'", "web0x", false],
    ["name rx 'b0'", "web01", true],
    ["name rx '(foo|bar)+'", "xbarx", true],
  ])("%s on %j → %s", (filter, name, expected) => expect(matches(filter, { name })).toBe(expected));

  test("an invalid pattern is a QueryError naming the position of the pattern", () => {
    const error = errorOf("name rx '(unclosed'");
    expect(error).toBeInstanceOf(QueryError);
    expect(error.message).toMatch(/^filter: invalid regular expression: .* at 8$/);
  });

  test.each(["(a+)+$", "(\\w*)*x", "((ab)+c)*", "(a{2,})+", "(x+x+)+y", "([a-z]+)*$"])("nested quantifiers are refused: %s", (pattern) => {
    expect(errorOf(`name rx '${pattern}'`).message).toMatch(/refused \(nested quantifier\)/);
  });

  test.each(["(a)\\1", "(?<x>a)\\k<x>"])("backreferences are refused: %s", (pattern) => {
    expect(errorOf(`name rx '${pattern}'`).message).toMatch(/refused \(backreference\)/);
  });

  test.each(["(ab)+", "[(+)]+", "a+b*", "\\(a+\\)+", "(a)?b+", "(?:abc){2}"])("safe patterns compile: %s", (pattern) => {
    expect(() => parseFilter(`name rx '${pattern}'`)).not.toThrow();
  });

  test("overlong patterns are refused", () => {
    expect(errorOf(`name rx '${"a".repeat(513)}'`).message).toMatch(/longer than 512/);
  });
});

describe("in matches any value of a parenthesized list", () => {
  test.each([
    ["status in ('running','stopped')", { status: "stopped" }, true],
    ["status in ('running', 'stopped')", { status: "paused" }, false],
    ["$key in (1, 2, 3)", { $key: "2" }, true],
    ["machine in (null, 5)", { machine: null }, true],
    ["status in ('x')", { status: "x" }, true],
    ["status in ()", { status: "x" }, false],
    ["status IN ( 'a' , 'x' )", { status: "x" }, true],
  ])("%s on %j → %s", (filter, row, expected) => expect(matches(filter, row)).toBe(expected));

  test("a list must be parenthesized and comma-separated", () => {
    expect(errorOf("status in 'a'").message).toBe("filter: unexpected token 'a' (expected '(') at 10");
    expect(errorOf("status in ('a' 'b')").message).toBe("filter: unexpected token 'b' (expected ',' or ')') at 15");
    expect(errorOf("status in ('a',").message).toBe("filter: end of filter (expected a value) at 15");
  });
});

describe("and binds tighter than or; parentheses group", () => {
  const row = { a: 1, b: 0, c: 1 };
  test.each([
    ["a eq 1 or b eq 1 and c eq 0", true], // a or (b and c)
    ["(a eq 1 or b eq 1) and c eq 0", false],
    ["b eq 1 and c eq 1 or a eq 1", true], // (b and c) or a
    ["b eq 1 and (c eq 1 or a eq 1)", false],
    ["a eq 1 and b eq 0 and c eq 1", true],
    ["a eq 0 or b eq 1 or c eq 1", true],
    ["((a eq 1))", true],
    ["a eq 1 AND b eq 0 Or c eq 5", true],
  ])("%s → %s", (filter, expected) => expect(matches(filter, row)).toBe(expected));

  test("the tree nests and inside or", () => {
    expect(parseFilter("a eq 1 or b eq 2 and c eq 3")).toMatchObject({
      kind: "or",
      items: [
        { kind: "compare", field: ["a"] },
        { kind: "and", items: [{ field: ["b"] }, { field: ["c"] }] },
      ],
    });
  });
});

describe("keywords are case-insensitive", () => {
  test.each(["name EQ 'a'", "name Eq 'a'", "name eq 'a' AND ram GT 1", "name LIKE 'A%'", "name in ('a') OR name eq 'b'"])(
    "%s",
    (filter) => {
      expect(matches(filter, { name: "a", ram: 2 })).toBe(true);
    },
  );
});

describe("strings are single-quoted with '' as an escaped quote", () => {
  test.each([
    ["name eq 'it''s'", "it's", true],
    ["name eq ''''", "'", true],
    ["name eq ''", "", true],
    ["name eq 'a and b or c'", "a and b or c", true],
    ["name eq '(x)'", "(x)", true],
    ["name eq 'tab\tand  spaces'", "tab\tand  spaces", true],
    ["name eq 'ünï'", "ünï", true],
  ])("%s matches %j", (filter, name, expected) => expect(matches(filter, { name })).toBe(expected));

  test("an unterminated string names its start", () => {
    expect(errorOf("name eq 'abc").message).toBe("filter: unterminated string at 8");
    expect(errorOf("name eq 'it''s").message).toBe("filter: unterminated string at 8");
  });

  test("a quoted number is still compared numerically with a number", () => {
    expect(matches("ram eq '1024'", { ram: 1024 })).toBe(true);
  });
});

describe("bare words that are not numbers or keywords are text", () => {
  test("unquoted text is tolerated", () => {
    expect(matches("status eq running", { status: "running" })).toBe(true);
    expect(matches("member eq vms/42", { member: "vms/42" })).toBe(true);
  });
});

describe("field names follow joins with # and may use $", () => {
  const row = { $key: 3, machine: { cluster: { name: "main" }, status: { status: "running" } }, owner: { $display: "Alice" } };
  test.each([
    ["machine#cluster#name eq 'main'", true],
    ["machine#status#status eq 'running'", true],
    ["owner#$display eq 'Alice'", true],
    ["$key eq 3", true],
    ["machine#missing#name eq null", true],
  ])("%s → %s", (filter, expected) => expect(matches(filter, row)).toBe(expected));

  test("the resolver receives the field split on #", () => {
    const seen: string[][] = [];
    matchesFilter(parseFilter("machine#status#node eq 1"), (path) => (seen.push(path), 1));
    expect(seen).toEqual([["machine", "status", "node"]]);
  });

  test.each(["a##b eq 1", "#a eq 1", "a# eq 1", "na=me eq 1"])("malformed field %s is refused", (filter) => {
    expect(errorOf(filter).message).toMatch(/^filter: invalid field name '.*' at 0$/);
  });
});

describe("$-functions in braces are evaluated at match time", () => {
  test("{$now} is the current Unix time in seconds", () => {
    expect(matches("expires lt {$now}", { expires: NOW - 1 })).toBe(true);
    expect(matches("expires lt {$now}", { expires: NOW })).toBe(false);
    expect(matches("expires eq {$now()}", { expires: NOW })).toBe(true);
    expect(matches("expires eq {$NOW}", { expires: NOW })).toBe(true);
  });

  test("{$add(...)} sums and {$sub(a,b)} subtracts, nesting {$now}", () => {
    expect(matches("expires lt {$add({$now},86400)}", { expires: NOW + 86399 })).toBe(true);
    expect(matches("expires lt {$add({$now},86400)}", { expires: NOW + 86400 })).toBe(false);
    expect(matches("t eq {$add(1, 2, '3')}", { t: 6 })).toBe(true);
    expect(matches("created gt {$sub({$now}, 3600)}", { created: NOW - 10 })).toBe(true);
  });

  test("without a context, {$now} reads the clock", () => {
    const expr = parseFilter("t le {$now}");
    const clock = Math.floor(Date.now() / 1000);
    expect(matchesFilter(expr, () => clock)).toBe(true);
    expect(matchesFilter(expr, () => clock + 3600)).toBe(false);
  });

  test("$-functions work in in-lists", () => {
    expect(matches("t in (1, {$now})", { t: NOW })).toBe(true);
  });

  test.each([
    ["t eq {$nope}", "filter: unexpected token '$nope' (expected a $-function ($now, $add, $sub)) at 6"],
    ["t eq {$add(1)}", "filter: $add takes at least 2 arguments, got 1 at 5"],
    ["t eq {$now(1)}", "filter: $now takes 0 arguments, got 1 at 5"],
    ["t eq {$add(1,'x')}", "filter: $add needs numeric arguments at 5"],
    ["t eq {$now", "filter: end of filter (expected '}') at 10"],
  ])("%s is refused", (filter, message) => expect(errorOf(filter).message).toBe(message));

  test("text operators refuse $-functions and null", () => {
    expect(errorOf("name ct {$now}").message).toBe("filter: operator 'ct' needs a text value at 8");
    expect(errorOf("name like null").message).toBe("filter: operator 'like' needs a text value at 10");
  });
});

describe("extra whitespace is tolerated", () => {
  test.each(["  name   eq   'a'  ", "(name eq 'a')", "( name eq 'a' )", "name eq 'a'\tand\nram eq 1", "((name eq 'a'))and(ram eq 1)"])(
    "%j",
    (filter) => {
      expect(matches(filter, { name: "a", ram: 1 })).toBe(true);
    },
  );
});

describe("malformed filters throw QueryError with the token and its position", () => {
  test.each([
    ["name eq 'x' xx", "filter: unexpected token 'xx' at 12"],
    ["name", "filter: end of filter (expected an operator) at 4"],
    ["name eq", "filter: end of filter (expected a value) at 7"],
    ["name foo 1", "filter: unexpected token 'foo' (expected an operator) at 5"],
    ["name = 'x'", "filter: unexpected token '=' (expected an operator) at 5"],
    ["(name eq 1", "filter: end of filter (expected ')') at 10"],
    ["name eq 1)", "filter: unexpected token ')' at 9"],
    ["name eq 1 and", "filter: end of filter (expected a field name) at 13"],
    ["and name eq 1", "filter: unexpected token 'and' (expected a field name) at 0"],
    ["name eq 1 or or b eq 1", "filter: unexpected token 'or' (expected a field name) at 13"],
    ["5 eq name", "filter: unexpected token '5' (expected a field name) at 0"],
    ["'x' eq name", "filter: unexpected token 'x' (expected a field name) at 0"],
    ["name eq ,", "filter: unexpected token ',' (expected a value) at 8"],
    ["()", "filter: unexpected token ')' (expected a field name) at 1"],
    ["not name eq 1", "filter: unexpected token 'name' (expected an operator) at 4"],
  ])("%j → %s", (filter, message) => {
    const error = errorOf(filter);
    expect(error).toBeInstanceOf(QueryError);
    expect(error.part).toBe("filter");
    expect(error.message).toBe(message);
  });

  test("the error carries the position as a number", () => {
    expect(errorOf("name eq 'x' xx").position).toBe(12);
  });
});

describe("rows with arrays or objects", () => {
  test("eq never matches a non-scalar value; ne always does", () => {
    expect(matches("tags eq 'a'", { tags: ["a"] })).toBe(false);
    expect(matches("tags ne 'a'", { tags: ["a"] })).toBe(true);
    expect(matches("meta eq null", { meta: {} })).toBe(false);
  });
});

describe("a parsed filter is reusable across rows", () => {
  test("one parse, many rows", () => {
    const expr = parseFilter("ram ge 2048 and name bw 'web'");
    const rows = [
      { name: "web1", ram: 4096 },
      { name: "web2", ram: 1024 },
      { name: "db1", ram: 8192 },
    ];
    expect(rows.filter((row) => matchesFilter(expr, resolverOf(row))).map((row) => row.name)).toEqual(["web1"]);
  });
});
