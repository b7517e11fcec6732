import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";

// The declarations a user's compiler reads from the package's entry point: a
// user's `tsc` checks all of them (no skipLibCheck), so they must reach nothing
// but @pulumi/pulumi and each other (zod's own declarations fail under the older
// commonjs + node TypeScript settings; provider internals are not the API).
const dist = path.resolve(__dirname, "../../dist");

function declarationGraph(entry: string): { files: string[]; external: string[] } {
  const files = new Set<string>();
  const external = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const { fileName: spec } of ts.preProcessFile(fs.readFileSync(file, "utf8"), true, true).importedFiles) {
      if (spec.startsWith(".")) visit(path.resolve(path.dirname(file), spec.replace(/(\.js)?$/, ".d.ts")));
      else external.add(spec);
    }
  };
  visit(entry);
  return { files: [...files].map((f) => path.relative(dist, f)), external: [...external] };
}

describe("the published declarations", () => {
  test("from the package root reach only the SDK's own files and @pulumi/pulumi", () => {
    const { files, external } = declarationGraph(path.join(dist, "sdk/index.d.ts"));
    expect(files).toEqual(expect.arrayContaining(["sdk/resources.d.ts", "sdk/schemaTypes.generated.d.ts"]));
    expect(files.filter((f) => !f.startsWith("sdk/"))).toEqual([]);
    expect(external).toEqual(["@pulumi/pulumi"]);
  });
});
