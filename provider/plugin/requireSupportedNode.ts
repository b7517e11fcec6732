// Imported first by the plugin's entry point (main.ts), so that it runs before any other module loads: the plugin
// exits at once on a Node.js that package.json's engines do not admit (supportedNode.ts), saying what to install.
import * as fs from "node:fs";
import * as path from "node:path";
import { packageRoot } from "./schema";
import { nodeRefusal } from "./supportedNode";

const { engines } = JSON.parse(fs.readFileSync(path.join(packageRoot(), "package.json"), "utf8"));
const refusal = nodeRefusal(process.versions.node, engines.node, process.execPath);
if (refusal) {
  console.error(refusal);
  process.exit(1);
}
