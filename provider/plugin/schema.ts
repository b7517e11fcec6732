import * as fs from "node:fs";
import * as path from "node:path";

export interface PackageSchema {
  name: string;
  version: string;
  resources: Record<string, unknown>;
  functions?: Record<string, unknown>;
  config?: { variables?: Record<string, { secret?: boolean }> };
}

/** The package's schema.json (generated from the zod schemas), from the installed package root. */
export function loadSchema(): { text: string; schema: PackageSchema } {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const file = path.join(dir, "schema.json");
    if (fs.existsSync(file) && fs.existsSync(path.join(dir, "package.json"))) {
      const text = fs.readFileSync(file, "utf8");
      return { text, schema: JSON.parse(text) as PackageSchema };
    }
    if (path.dirname(dir) === dir) throw new Error(`vplatform: schema.json not found above ${__dirname}`);
  }
}
