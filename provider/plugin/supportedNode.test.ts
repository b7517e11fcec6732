import * as fs from "node:fs";
import * as path from "node:path";
import { nodeRefusal } from "./supportedNode";

const RANGE = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8")).engines.node;

describe("the Node.js the plugin runs on (package.json engines.node)", () => {
  test.each(["22.12.0", "22.20.1", "24.0.0", "24.9.3", "25.1.0"])("Node.js %s runs it", (version) => {
    expect(nodeRefusal(version, RANGE, "/usr/bin/node")).toBeUndefined();
  });

  test.each(["22.11.0", "20.20.2", "18.20.4", "23.0.0"])("Node.js %s is refused, naming what to install", (version) => {
    const refusal = nodeRefusal(version, RANGE, "/opt/node20/bin/node");
    expect(refusal).toContain("the resource plugin needs Node.js 22.12 or a later 22.x, or 24 or later");
    expect(refusal).toContain(`this is Node.js ${version} (/opt/node20/bin/node)`);
    expect(refusal).toContain("Install Node.js 22 LTS or 24 LTS");
  });

  test("a term the check cannot read fails loudly rather than admitting every Node.js", () => {
    expect(() => nodeRefusal("24.0.0", "~22.12", "node")).toThrow(/neither \^X\.Y\.Z nor >=X/);
  });
});
