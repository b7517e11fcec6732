/**
 * Every table field name the maker's clients send (the committed list in clientFieldNames.ts) is known to the
 * emulator's table definitions: a `fields` entry passes the same check a list call runs, a `filter` path resolves,
 * a body name is a field of the table (or, for an action table, its target, `action` or `params`). Names of made-up
 * fields are still refused, naming the field.
 */
import { buildContext } from "../../emulator";
import type { EmulatorContext } from "../../emulator/engine/context";
import { checkPath, checkSelection } from "../../emulator/engine/knownFields";
import { parseFields } from "../../emulator/query";
import type { TableDef } from "../../emulator/model/types";
import { CLIENT_FIELD_NAMES, type MakerClient, type NameUse } from "./clientFieldNames";

const ctx: EmulatorContext = buildContext({ adminPassword: "unused" });
afterAll(() => ctx.close());

/** The message of the refusal a name meets, or undefined when it is known. */
function refusal(def: TableDef, use: NameUse, name: string): string | undefined {
  try {
    if (use === "fields") checkSelection(ctx, def, parseFields(name));
    else if (use === "filter") checkPath(ctx, def, name.split("#"), "filter");
    else if (!bodyNames(def).has(name)) return `body: unknown field '${name}' of ${def.name}`;
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

function bodyNames(def: TableDef): Set<string> {
  const target = def.actions?.targetField;
  return new Set(def.actions ? ["action", "params", ...(target ? [target] : [])] : Object.keys(def.fields));
}

const tables = Object.entries(CLIENT_FIELD_NAMES);
const uses = (entry: Partial<Record<NameUse, string[]>>) => Object.entries(entry) as [NameUse, string[]][];

describe("the tables the maker's clients use exist in the emulator", () => {
  test.each(tables.map(([table]) => table))("%s", (table) => {
    expect(ctx.tables.has(table)).toBe(true);
  });
});

describe("every name the maker's clients send is known to its table", () => {
  test.each(tables)("%s", (table, byClient) => {
    const def = ctx.store(table).def;
    const refused: string[] = [];
    for (const [client, entry] of Object.entries(byClient) as [MakerClient, Partial<Record<NameUse, string[]>>][]) {
      for (const [use, names] of uses(entry)) {
        for (const name of names) {
          const problem = refusal(def, use, name);
          if (problem) refused.push(`${client} ${use} '${name}': ${problem}`);
        }
      }
    }
    expect(refused).toEqual([]);
  });
});

describe("an unknown name is still refused, naming the field", () => {
  const vms = () => ctx.store("vms").def;
  test("in fields", () => expect(refusal(vms(), "fields", "colour")).toBe("fields: unknown field 'colour' of vms"));
  test("in a filter path through a reference", () => {
    expect(refusal(vms(), "filter", "machine#colour")).toBe("filter: unknown field 'machine#colour' of machines");
  });
  test("in a body", () => expect(refusal(vms(), "body", "colour")).toBe("body: unknown field 'colour' of vms"));
});
