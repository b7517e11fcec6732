/**
 * The emulator's layers point one way (issue 10): the table types at the bottom import nothing of
 * the emulator; the context implements them without being imported by them; the query language
 * stands alone; only the entry point composes the HTTP server; the emulator never reaches into the
 * provider or the SDK. Each rule reads the import statements of the source files, so a new import
 * the wrong way fails here.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const ROOT = resolve(__dirname, "../..");
const EMULATOR = join(ROOT, "emulator");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

/** Repository-relative targets of a file's relative imports (`emulator/core/context`). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specifiers = [...text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+"(\.[^"]+)"/gms)].map((m) => m[1]);
  return [...new Set(specifiers.map((s) => relative(ROOT, resolve(dirname(file), s)).replace(/\.ts$/, "")))];
}

const files = sources(EMULATOR).map((file) => ({ file: relative(ROOT, file).replace(/\.ts$/, ""), imports: importsOf(file) }));
const importsOfFile = (name: string) => files.find((f) => f.file === name)!.imports;

describe("the emulator's imports point one way", () => {
  test("tables/types.ts, the bottom layer, imports nothing of the emulator", () => {
    expect(importsOfFile("emulator/tables/types")).toEqual([]);
  });

  test("core/context.ts imports only the table types, the clock and errors (never the reverse)", () => {
    expect(importsOfFile("emulator/core/context").sort()).toEqual(["emulator/core/clock", "emulator/core/errors", "emulator/tables/types"]);
  });

  test("core/clock.ts, under the context, imports nothing of the emulator", () => {
    expect(importsOfFile("emulator/core/clock")).toEqual([]);
  });

  test("the query language imports only itself", () => {
    const outside = files.filter((f) => f.file.startsWith("emulator/query/")).flatMap((f) => f.imports.filter((i) => !i.startsWith("emulator/query/")).map((i) => `${f.file} → ${i}`));
    expect(outside).toEqual([]);
  });

  test("domain/ uses tables/ only through the table types", () => {
    const wrong = files.filter((f) => f.file.startsWith("emulator/domain/")).flatMap((f) => f.imports.filter((i) => i.startsWith("emulator/tables/") && i !== "emulator/tables/types").map((i) => `${f.file} → ${i}`));
    expect(wrong).toEqual([]);
  });

  test("only the entry point composes the HTTP server", () => {
    const wrong = files.filter((f) => !f.file.startsWith("emulator/server/") && f.file !== "emulator/index").flatMap((f) => f.imports.filter((i) => i.startsWith("emulator/server/")).map((i) => `${f.file} → ${i}`));
    expect(wrong).toEqual([]);
  });

  test("nothing in the emulator imports the provider or the SDK", () => {
    const wrong = files.flatMap((f) => f.imports.filter((i) => /^(provider|sdk)\//.test(i)).map((i) => `${f.file} → ${i}`));
    expect(wrong).toEqual([]);
  });
});
