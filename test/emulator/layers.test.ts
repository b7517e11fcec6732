/**
 * The emulator's layers point one way (issue 10): the table types at the bottom import nothing of
 * the emulator; the context implements them without being imported by them; the query language
 * stands alone; only the entry point composes the HTTP server; the emulator never reaches into the
 * provider or the SDK. Each rule reads the import statements of the source files, so a new import
 * the wrong way fails here.
 */
import { edges, sourceFiles } from "../importGraph";

/** Each emulator module (`emulator/engine/context`) with the modules of ours it imports, read as the provider's layering test reads them. */
const graph = edges(["emulator"]);
const files = sourceFiles("emulator").map((file) => ({
  file: file.replace(/\.ts$/, ""),
  imports: [
    ...new Set(graph.filter((e) => e.from === file && /^(emulator|provider|sdk|env)\//.test(e.to)).map((e) => e.to.replace(/\.ts$/, ""))),
  ],
}));
const importsOfFile = (name: string) => files.find((f) => f.file === name)!.imports;

describe("the emulator's imports point one way", () => {
  test("model/types.ts, the bottom layer, imports nothing of the emulator", () => {
    expect(importsOfFile("emulator/model/types")).toEqual([]);
  });

  test("engine/context.ts imports only the table types, the clock and errors (never the reverse)", () => {
    expect(importsOfFile("emulator/engine/context").sort()).toEqual([
      "emulator/engine/clock",
      "emulator/model/errors",
      "emulator/model/types",
    ]);
  });

  test("engine/clock.ts, under the context, imports nothing of the emulator", () => {
    expect(importsOfFile("emulator/engine/clock")).toEqual([]);
  });

  test("the query language imports only itself", () => {
    const outside = files
      .filter((f) => f.file.startsWith("emulator/query/"))
      .flatMap((f) => f.imports.filter((i) => !i.startsWith("emulator/query/")).map((i) => `${f.file} → ${i}`));
    expect(outside).toEqual([]);
  });

  test("domain/ uses tables/ only through the table types", () => {
    const wrong = files
      .filter((f) => f.file.startsWith("emulator/domain/"))
      .flatMap((f) =>
        f.imports.filter((i) => i.startsWith("emulator/tables/") && i !== "emulator/model/types").map((i) => `${f.file} → ${i}`),
      );
    expect(wrong).toEqual([]);
  });

  test("only the entry point composes the HTTP server", () => {
    const wrong = files
      .filter((f) => !f.file.startsWith("emulator/server/") && f.file !== "emulator/index")
      .flatMap((f) => f.imports.filter((i) => i.startsWith("emulator/server/")).map((i) => `${f.file} → ${i}`));
    expect(wrong).toEqual([]);
  });

  test("nothing in the emulator imports the provider or the SDK", () => {
    const wrong = files.flatMap((f) => f.imports.filter((i) => /^(provider|sdk)\//.test(i)).map((i) => `${f.file} → ${i}`));
    expect(wrong).toEqual([]);
  });
});
