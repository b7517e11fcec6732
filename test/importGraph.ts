// The one import-graph reader of the layering tests (provider/layering.test.ts,
// test/emulator/layers.test.ts): every module specifier of every source file.
import * as fs from "node:fs";
import * as path from "node:path";

export const root = path.resolve(__dirname, "..");

/** Repository-relative source files under `dir` (tests and declarations excluded). */
export function sourceFiles(dir: string): string[] {
  const abs = path.join(root, dir);
  if (!fs.existsSync(abs)) return [];
  return fs
    .readdirSync(abs, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && !f.endsWith(".d.ts"))
    .map((f) => path.join(dir, f));
}

/** Every module specifier of static imports, re-exports, require() and import(). */
export function importsOf(text: string): string[] {
  const found: string[] = [];
  const forms = [
    /\b(?:import|export)\s[^;]*?\sfrom\s+["']([^"']+)["']/g,
    /\bimport\s+["']([^"']+)["']/g,
    /\b(?:require|import)\(\s*["']([^"']+)["']\s*\)/g,
  ];
  for (const re of forms) {
    for (const m of text.matchAll(re)) found.push(m[1]);
  }
  return found;
}

export interface Edge {
  from: string;
  /** A repository-relative path for a relative import (`provider/plan/diff`), else the package name. */
  to: string;
}

export function edges(dirs: string[]): Edge[] {
  return dirs.flatMap(sourceFiles).flatMap((file) =>
    importsOf(fs.readFileSync(path.join(root, file), "utf8")).map((spec) => ({
      from: file,
      to: spec.startsWith(".") ? path.join(path.dirname(file), spec) : spec,
    })),
  );
}
