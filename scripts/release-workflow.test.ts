import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";

const root = path.join(__dirname, "..");
const workflow = parse(fs.readFileSync(path.join(root, ".github", "workflows", "release.yml"), "utf8"));
const steps: { uses?: string; run?: string; env?: Record<string, string> }[] = workflow.jobs.release.steps;
const runs = steps.map((s) => s.run ?? "");
const indexOfRun = (pattern: RegExp) => runs.findIndex((r) => pattern.test(r));

describe("the release workflow", () => {
  test("runs on a version tag only", () => {
    expect(workflow.on).toEqual({ push: { tags: ["v*.*.*"] } });
  });

  test("refuses a tag that is not the package's version", () => {
    expect(indexOfRun(/GITHUB_REF_NAME.*require\("\.\/package\.json"\)\.version/)).toBeGreaterThanOrEqual(0);
  });

  test("builds and tests as CI does, then packs, publishes that tarball with provenance and attaches it to the release", () => {
    const test = indexOfRun(/^\.ci\/run$/);
    const pack = indexOfRun(/^npm pack$/);
    const publish = indexOfRun(/^npm publish "\.\/vplatform-\$\{GITHUB_REF_NAME#v\}\.tgz" --provenance/);
    const release = indexOfRun(/^gh release create "\$GITHUB_REF_NAME" "\.\/vplatform-\$\{GITHUB_REF_NAME#v\}\.tgz"/);
    expect([test, pack, publish, release].every((i) => i >= 0)).toBe(true);
    expect([test, pack, publish, release]).toEqual([...[test, pack, publish, release]].sort((a, b) => a - b));
    expect(steps[publish].env).toEqual({ NODE_AUTH_TOKEN: "${{ secrets.NPM_TOKEN }}" });
  });

  test("may mint the OIDC token provenance needs and write the release, nothing more", () => {
    expect(workflow.permissions).toEqual({ contents: "write", "id-token": "write" });
  });

  test("the package builds on prepack, not prepare (which npm would run, or warn about, in users' projects)", () => {
    const scripts = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).scripts;
    expect(scripts.prepack).toBe("npm run build");
    expect(Object.keys(scripts).filter((s) => /^(pre|post)?(install|prepare)$/.test(s))).toEqual([]);
  });
});
