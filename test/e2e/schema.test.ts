// schema.json is generated from the zod input schemas and accepted by the real engine.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { findRepoRoot, pulumiRoot } from "../../env/local-stack";
import { RESOURCE_LIST } from "../../provider/resources";
import { generatedFiles } from "../../scripts/gen-schema";

const root = findRepoRoot();

describe("schema.json", () => {
  test("the committed schema.json and docs/resources.md are what the zod schemas generate", () => {
    for (const [file, text] of Object.entries(generatedFiles(root))) {
      expect({ file, text: fs.readFileSync(path.join(root, file), "utf8") }).toEqual({ file, text });
    }
  });

  test("every resource's required inputs are among its inputs and every $ref resolves", () => {
    const schema = JSON.parse(fs.readFileSync(path.join(root, "schema.json"), "utf8"));
    expect(Object.keys(schema.resources).sort()).toEqual(
      [...RESOURCE_LIST.map((r) => `vplatform:index:${r.token}`), "vplatform:index:Lab"].sort(),
    );
    const refs = JSON.stringify(schema).match(/"#\/types\/[^"]+"/g) ?? [];
    for (const ref of refs) expect(schema.types).toHaveProperty([ref.slice(9, -1)]);
    for (const r of Object.values<any>(schema.resources))
      for (const name of r.requiredInputs) expect(r.inputProperties).toHaveProperty([name]);
  });

  test("the real engine validates it against Pulumi's package metaschema", () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), "vplatform-gen-sdk-"));
    let output = "";
    try {
      output = execFileSync(
        path.join(pulumiRoot(), "bin", "pulumi"),
        ["package", "gen-sdk", path.join(root, "schema.json"), "--language", "nodejs", "--out", out],
        {
          // The language host sits beside the CLI; the engine looks for it on PATH.
          env: {
            ...process.env,
            PATH: `${path.join(pulumiRoot(), "bin")}${path.delimiter}${process.env.PATH}`,
            PULUMI_SKIP_UPDATE_CHECK: "true",
            PULUMI_HOME: path.join(root, ".pulumi", "home"),
          },
          encoding: "utf8",
          stdio: "pipe",
        },
      );
    } catch (e) {
      output = String((e as { stderr?: string }).stderr ?? e);
      // The schema was bound and validated; only code generation is left to the language host, and
      // our own host (tools/pulumi-language-nodejs) does not generate SDKs (dynamic resources cannot use them).
      expect(output).toMatch(/GeneratePackage not implemented/);
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
    expect(output).not.toMatch(/doesn't validate|failed to bind|schema is invalid/i);
  }, 120_000);
});
