// SDK generation for the resource plugin: `pulumi package gen-sdk` through our Node.js language host's
// GeneratePackage, compiled by tsc (scripts/gen-sdk.sh), the Go SDK built with go, and the host's own Go tests. The package
// ships no generated TypeScript SDK: `vplatform` is the one SDK, and a program that wants the plugin's generated
// classes makes them from the package's schema.json (`pulumi package gen-sdk`), as the set-up does here.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { findRepoRoot } from "../../env/local-stack";
import { goName } from "../../provider/plugin/sdkSpellings";
import * as vplatform from "../../sdk";
import { setUpSdk } from "./setUpSdks";

const root = findRepoRoot();

/** Runs a command without blocking jest; resolves with its exit code and output. */
function run(cmd: string, args: string[], cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, GOFLAGS: "-mod=mod" } });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

describe("scripts/gen-sdk.sh (run by the set-up once per schema: VPLATFORM_SDK)", () => {
  let copy: string;
  beforeAll(() => void (copy = fs.mkdtempSync(path.join(os.tmpdir(), "vplatform-sdk-"))));
  afterAll(() => fs.rmSync(copy, { recursive: true, force: true }));

  test("generates the Node.js SDK of schema.json and compiles it into a package directory (and the Go SDK, built and vetted)", () => {
    const out = setUpSdk();
    const bin = path.join(out, "nodejs", "bin");
    const pkg = JSON.parse(fs.readFileSync(path.join(bin, "package.json"), "utf8"));
    expect(pkg).toMatchObject({
      version: JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).version,
      pulumi: { resource: true, name: "vplatform" },
    });

    // Every resource and function of the schema is a class or function of the compiled SDK, with its declarations.
    // Loaded as a program that depends on it would (a copy beside a node_modules: the set-up's is shared).
    fs.cpSync(bin, path.join(copy, "bin"), { recursive: true });
    fs.symlinkSync(path.join(root, "node_modules"), path.join(copy, "node_modules"), "dir");
    const schema = JSON.parse(fs.readFileSync(path.join(root, "schema.json"), "utf8"));
    const sdk = require(path.join(copy, "bin"));
    const lastPart = (token: string) => token.split(":")[2];
    for (const token of Object.keys(schema.resources)) {
      const name = lastPart(token);
      expect([token, sdk[name]?.__pulumiType]).toEqual([token, token]);
      expect(fs.existsSync(path.join(bin, `${name[0].toLowerCase()}${name.slice(1)}.d.ts`))).toBe(true);
    }
    for (const token of Object.keys(schema.functions ?? {})) expect([token, typeof sdk[lastPart(token)]]).toEqual([token, "function"]);
    expect(sdk.Provider.__pulumiType).toBe("vplatform"); // the explicit provider resource (pulumi:providers:vplatform)
    // The Go SDK (the script fails unless it builds and vets): a file per resource and function.
    const goFiles = fs.readdirSync(path.join(out, "go", "vplatform"));
    for (const token of [...Object.keys(schema.resources), ...Object.keys(schema.functions ?? {})]) {
      const name = lastPart(token);
      expect([token, goFiles.includes(`${name[0].toLowerCase()}${name.slice(1)}.go`)]).toEqual([token, true]);
    }
    // Every input's Go field is named as a refusal names it for Go programs (provider/plugin/sdkSpellings.ts).
    const goSources = goFiles
      .filter((f) => f.endsWith(".go"))
      .map((f) => fs.readFileSync(path.join(out, "go", "vplatform", f), "utf8"))
      .join("\n");
    const inputs = [
      ...Object.values<{ inputProperties?: object }>(schema.resources).flatMap((r) => Object.keys(r.inputProperties ?? {})),
      ...Object.values<{ properties?: object }>(schema.types).flatMap((t) => Object.keys(t.properties ?? {})),
    ];
    expect([...new Set(inputs)].filter((input) => !goSources.includes(`\t${goName(input)} `))).toEqual([]);
  });
});

// The code `pulumi import` prints is on `vplatform` and writes enum-typed inputs as Pulumi's generator names them
// (`vplatform.VirtualMachineOsFamily.Linux`): the one SDK exports each enum of the generated SDK, with the same
// members and values.
describe("the one SDK and the generated SDK", () => {
  test("the SDK exports every enum the generated code names, with the same members and values", () => {
    const generated: Record<string, unknown> = require(path.join(setUpSdk(), "nodejs", "bin", "types", "enums"));
    const enums = Object.entries(generated).filter(([name]) => name !== "__esModule");
    expect(enums.length).toBeGreaterThan(0);
    for (const [name, members] of enums) expect([name, (vplatform as Record<string, unknown>)[name]]).toEqual([name, members]);
  });
});

describe("the Python SDK the repository ships in sdk-python/ (pulumi_vplatform)", () => {
  test("is what scripts/gen-python-sdk.sh makes of schema.json with Pulumi's Python generator (regenerate it when the schema changes)", async () => {
    const { code, output } = await run("bash", ["scripts/gen-python-sdk.sh", "--check"], root);
    expect({ code, output }).toMatchObject({ code: 0 });
  }, 180_000);
});

describe("our Python and Go language hosts (tools/pulumi-language-python, tools/pulumi-language-go) and what all hosts share", () => {
  test.each(["pulumi-language-python", "pulumi-language-go", "languagehost"])(
    "%s passes its Go tests (run options, the program's arguments, environment and exit)",
    async (host) => {
      const { code, output } = await run(
        "go",
        ["test", "-trimpath", "-tags", "osusergo,grpcnotrace", "-count=1", "./..."],
        path.join(root, "tools", host),
      );
      expect({ code, output }).toMatchObject({ code: 0 });
    },
    300_000,
  );
});

describe("our Node.js language host (tools/pulumi-language-nodejs)", () => {
  test("passes its Go tests (run options, entry points, GeneratePackage, GenerateProgram, RunPlugin)", async () => {
    // The set-up's compile flags (scripts/build-engine.sh), so Go's build cache serves both.
    const { code, output } = await run(
      "go",
      ["test", "-trimpath", "-tags", "osusergo,grpcnotrace", "-count=1", "./..."],
      path.join(root, "tools", "pulumi-language-nodejs"),
    );
    expect({ code, output }).toMatchObject({ code: 0 });
  }, 600_000);
});
