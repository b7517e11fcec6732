/**
 * Every table the emulator serves is named once, in the model's file of the service that owns it
 * (model/names/<area>.ts); everywhere else
 * (the service's behaviour, other services, the engine, the server, the console, persistence) a table is named by
 * that constant, and an event by its table's (`rowEvent(COMPUTE.machines, "deleted")`, `VM_EVENTS.poweron`). The
 * rules read the string literals of the source files (tests excluded: they are test data), so a new
 * `ctx.get("vms", ...)` fails here.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { allServices } from "../../emulator/services";
import { root, sourceFiles } from "../importGraph";

/** Words that name a table and also something else: the file where each means the other thing, and what. */
const HOMONYMS: Record<string, Record<string, string>> = {
  "emulator/model/callers.ts": { system: "the user the emulator writes as" },
  "emulator/services/logs/tables.ts": { system: "a log line's object type and name" },
  "emulator/query/fields.ts": { dashboard: "a view of `fields`" },
  "emulator/engine/read.ts": { dashboard: "a view of `fields`" },
  "emulator/console/page.ts": Object.fromEntries(
    ["vms", "vnets", "users", "groups", "webhooks", "tasks"].map((list) => [list, "a list of the page (CONSOLE_LISTINGS)"]),
  ),
};

/** The string literals of a source text (not comments, not template literals with substitutions), with their lines. */
function stringLiterals(file: string, text: string): { value: string; line: number }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: { value: string; line: number }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      found.push({ value: node.text, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The table a literal names: the table itself, or one of its events (`vms.poweron`). */
function tableNamedBy(value: string, tables: ReadonlySet<string>): string | undefined {
  if (tables.has(value)) return value;
  const event = /^([a-z_]+)\.[a-z_]+$/.exec(value);
  return event && tables.has(event[1]) ? event[1] : undefined;
}

const servedTables = new Set(allServices().flatMap((service) => service.tables.map((def) => def.name)));

/** Each service's names file (model/names/<area>.ts) with the table names it declares. */
const namesFiles = sourceFiles("emulator/model/names").map((file) => ({
  file,
  declares: stringLiterals(file, fs.readFileSync(path.join(root, file), "utf8"))
    .map((literal) => literal.value)
    .filter((value) => servedTables.has(value)),
}));
const declaredIn = new Map(namesFiles.flatMap(({ file, declares }) => declares.map((table) => [table, file] as const)));

/** `file:line: literal` for every literal table name outside the names file that declares it (and the homonyms). */
function literalsOutsideTheirNames(files: { file: string; text: string }[]): string[] {
  return files.flatMap(({ file, text }) =>
    stringLiterals(file, text)
      .filter(({ value }) => {
        const table = tableNamedBy(value, servedTables);
        return table !== undefined && declaredIn.get(table) !== file && HOMONYMS[file]?.[value] === undefined;
      })
      .map(({ value, line }) => `${file}:${line}: "${value}"`),
  );
}

describe("each table is named in its own service's names file", () => {
  test("every served table is declared in exactly one names file", () => {
    const declarations = namesFiles.flatMap(({ declares }) => declares);
    expect(declarations.filter((table, i) => declarations.indexOf(table) !== i)).toEqual([]);
    expect([...servedTables].filter((table) => !declaredIn.has(table))).toEqual([]);
  });

  test("a service's tables are all declared in one names file, and each names file serves one service", () => {
    const folders = allServices().map((service) => [...new Set(service.tables.map((def) => declaredIn.get(def.name)))]);
    expect(folders.filter((files) => files.length !== 1)).toEqual([]);
    expect(new Set(folders.flat()).size).toBe(folders.length);
    expect(folders.length).toBe(namesFiles.length);
  });
});

describe("no table is named by a literal elsewhere", () => {
  test("the rule sees a literal table name, and one of its events, and passes comments and other strings", () => {
    const text = `// ctx.get("vms")\nctx.get("vms", 1);\nctx.emit("vms.poweron");\nconst s = "vm";\nctx.get(VMS, 1);`;
    expect(literalsOutsideTheirNames([{ file: "emulator/services/x/y.ts", text }])).toEqual([
      'emulator/services/x/y.ts:2: "vms"',
      'emulator/services/x/y.ts:3: "vms.poweron"',
    ]);
  });

  test("no source file of the emulator writes a table name outside its service's names file", () => {
    const files = sourceFiles("emulator").map((file) => ({ file, text: fs.readFileSync(path.join(root, file), "utf8") }));
    expect(literalsOutsideTheirNames(files)).toEqual([]);
  });

  test("each homonym is still written where it is allowed (none is stale)", () => {
    const stale = Object.entries(HOMONYMS).flatMap(([file, words]) => {
      const values = new Set(stringLiterals(file, fs.readFileSync(path.join(root, file), "utf8")).map((l) => l.value));
      return Object.keys(words)
        .filter((word) => !values.has(word))
        .map((word) => `${file}: ${word}`);
    });
    expect(stale).toEqual([]);
  });
});
