// A clone on an unsupported Node fails at `npm ci`, at once, naming the versions required (the repository's
// .npmrc sets engine-strict): on Node 20 npm used only to warn, drop fastify, and let `npm pack` die minutes
// later with a hundred TypeScript errors.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const root = path.join(__dirname, "..", "..");
const node20 = process.env.VPLATFORM_NODE20;

describe("npm ci on an unsupported Node", () => {
  test("Node 20: refused within seconds, naming the Node versions the package requires", () => {
    if (!node20) throw new Error("VPLATFORM_NODE20 (a Node 20 binary) is not set: run through ./dev test (scripts/env.sh installs it)");
    const clone = fs.mkdtempSync(path.join(os.tmpdir(), "node20-clone-"));
    for (const file of ["package.json", "package-lock.json", ".npmrc"]) fs.copyFileSync(path.join(root, file), path.join(clone, file));
    // The npm on PATH, run by Node 20 (first on PATH): the engine npm checks is the Node that runs it.
    const PATH = `${path.dirname(node20)}${path.delimiter}${process.env.PATH}`;
    const started = Date.now();
    const run = spawnSync("npm", ["ci", "--ignore-scripts"], { cwd: clone, encoding: "utf8", env: { ...process.env, PATH } });
    expect(spawnSync(node20, ["--version"], { encoding: "utf8" }).stdout).toMatch(/^v20\./);
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(/EBADENGINE|Unsupported engine/);
    expect(run.stderr).toContain('"node":"^22.12.0 || >=24"');
    expect(fs.existsSync(path.join(clone, "node_modules", "fastify"))).toBe(false);
    expect(Date.now() - started).toBeLessThan(30_000);
  });
});
