// Dynamic-provider shims require("vplatform/provider/...") at call time from the
// program directory, and programs import "vplatform". A user's install has
// node_modules/vplatform; inside this repository (examples, tests) the build
// makes one: a directory with the package.json and a copy of dist/. Not a link
// to the repository itself: TypeScript (ts-node) would then see the examples as
// files of the package whose exports it resolves, and fail (TS2209). Not a link
// to dist/ either: Node would load the files by their real path, outside
// node_modules, and Pulumi would serialize each resource's provider by value
// instead of as a require of the installed package (see sdk/providerShim.ts),
// so the engine would not run what users run.
// Beside dist/, what the engine reads of an installed package: schema.json and the plugin directory (a Python or
// Go project's Pulumi.yaml names node_modules/vplatform/plugin).
// Not an install step of the package: only the repository's own build runs it.
const fs = require("node:fs");
const path = require("node:path");
const root = path.join(__dirname, "..");
const dir = path.join(root, "node_modules", "vplatform");
if (fs.lstatSync(dir, { throwIfNoEntry: false })?.isSymbolicLink()) fs.unlinkSync(dir);
fs.mkdirSync(dir, { recursive: true });
for (const file of ["package.json", "schema.json", "plugin/PulumiPlugin.yaml", "plugin/index.js"]) {
  fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  fs.copyFileSync(path.join(root, file), path.join(dir, file));
}
const dist = path.join(dir, "dist");
fs.rmSync(dist, { recursive: true, force: true });
fs.cpSync(path.join(root, "dist"), dist, {
  recursive: true,
  filter: (src) => !/\.(test|typecheck)\.(js|d\.ts|js\.map)$|\.tsbuildinfo$|\.build-stamp$/.test(src),
});
