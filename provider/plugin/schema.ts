import * as fs from "node:fs";
import * as path from "node:path";

export interface PackageSchema {
  name: string;
  version: string;
  resources: Record<string, unknown>;
  functions?: Record<string, unknown>;
  config?: { variables?: Record<string, { secret?: boolean }> };
}

/** The installed package's root: the first directory above this module with schema.json and package.json. */
export function packageRoot(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, "schema.json")) && fs.existsSync(path.join(dir, "package.json"))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`vplatform: schema.json not found above ${__dirname}`);
  }
}

/** The package's schema.json (generated from the zod schemas), from the installed package root. */
export function loadSchema(): { text: string; schema: PackageSchema } {
  const text = fs.readFileSync(path.join(packageRoot(), "schema.json"), "utf8");
  return { text, schema: JSON.parse(text) as PackageSchema };
}
