// The language hosts of the engine set-up run programs as users write them.
// Node.js: programs as users lay them out (`pulumi new typescript` and its variants),
// like the stock host: index.ts directly, compiled on the fly, with Pulumi.yaml's `main` and runtime options
// and package.json's `main` honoured. Each project lives inside this repository, whose own package.json
// (main: dist/sdk/index.js) encloses it: it must never be run instead of the user's program.
import * as fs from "node:fs";
import * as path from "node:path";
import { collect, startE2e } from "./harness";
import { findRepoRoot } from "../../env/local-stack";

/** Writes a project (file name → contents) in a fresh directory under .e2e-work. */
function project(name: string, files: Record<string, string>): string {
  const base = path.join(findRepoRoot(), ".e2e-work");
  fs.mkdirSync(base, { recursive: true });
  const dir = fs.mkdtempSync(path.join(base, `ts-${name}-`));
  for (const [file, contents] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), contents);
  }
  return dir;
}

/** `pulumi up` of the project; its stack outputs, or the engine's output when it fails. */
async function up(name: string, dir: string): Promise<{ outputs?: Record<string, unknown>; output: string }> {
  const ctx = await startE2e(name, { projectDir: dir });
  try {
    const result = await ctx.stack.up(collect(ctx));
    return { outputs: Object.fromEntries(Object.entries(result.outputs).map(([k, v]) => [k, v.value])), output: ctx.output.join("") };
  } catch (err) {
    return { output: ctx.output.join("") + String(err) };
  } finally {
    await ctx.dispose();
    if (!process.env.VPLATFORM_KEEP_E2E) fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A program only TypeScript can run (an interface, annotations), exporting what it ran as. */
const tsProgram = (tag: string) => `
import * as pulumi from "@pulumi/pulumi";
interface Ran { tag: string; typed: boolean }
const ran: Ran = { tag: ${JSON.stringify(tag)}, typed: true };
export const program: string = ran.tag;
export const project: string = pulumi.getProject();
`;

describe("a TypeScript project as `pulumi new typescript` makes it", () => {
  test("`runtime: nodejs` without main and without package.json runs index.ts, not the enclosing package's main", async () => {
    const dir = project("bare", { "Pulumi.yaml": "name: ts-bare\nruntime: nodejs\n", "index.ts": tsProgram("index.ts") });
    const { outputs, output } = await up("ts-bare", dir);
    expect({ outputs, output }).toMatchObject({ outputs: { program: "index.ts", project: "ts-bare" } });
    expect(output).not.toMatch(/using pulumi-language-nodejs from \$PATH/);
  }, 120_000);

  test("package.json's main decides when Pulumi.yaml has none", async () => {
    const dir = project("pkgmain", {
      "Pulumi.yaml": "name: ts-pkgmain\nruntime: nodejs\n",
      "package.json": JSON.stringify({ name: "ts-pkgmain", main: "src/program.ts" }),
      "index.ts": tsProgram("index.ts"),
      "src/program.ts": tsProgram("src/program.ts"),
    });
    expect((await up("ts-pkgmain", dir)).outputs).toMatchObject({ program: "src/program.ts" });
  }, 120_000);

  test("Pulumi.yaml's main runs that file, compiled with runtime.options.tsconfig (looked up beside main, as the stock host does)", async () => {
    const dir = project("main", {
      "Pulumi.yaml":
        "name: ts-main\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n    tsconfig: tsconfig.pulumi.json\nmain: app/main.ts\n",
      "app/tsconfig.pulumi.json": JSON.stringify({ compilerOptions: { strict: true, noUnusedLocals: true } }),
      "index.ts": tsProgram("index.ts"),
      // Only the tsconfig's noUnusedLocals makes this an error: proof that it reached the compiler.
      "app/main.ts": `${tsProgram("app/main.ts")}const unusedLocal = 1;\n`,
    });
    const { outputs, output } = await up("ts-main", dir);
    expect(outputs).toBeUndefined();
    expect(output).toMatch(/main\.ts.*'unusedLocal' is declared but its value is never read/s);
  }, 120_000);

  test("a type error fails `up` with the compiler's message, naming the file", async () => {
    const dir = project("typeerror", {
      "Pulumi.yaml": "name: ts-typeerror\nruntime: nodejs\n",
      "index.ts": `export const n: number = "not a number";\n`,
    });
    const { outputs, output } = await up("ts-typeerror", dir);
    expect(outputs).toBeUndefined();
    expect(output).toMatch(/index\.ts.*Type 'string' is not assignable to type 'number'/s);
  }, 120_000);

  test("`typescript: false` runs JavaScript as it is (index.js)", async () => {
    const dir = project("js", {
      "Pulumi.yaml": "name: ts-js\nruntime:\n  name: nodejs\n  options:\n    typescript: false\n",
      "index.js": `exports.program = "index.js";\n`,
    });
    expect((await up("ts-js", dir)).outputs).toMatchObject({ program: "index.js" });
  }, 120_000);

  test("a runtime option of the wrong type is refused, naming it", async () => {
    const dir = project("badopt", {
      "Pulumi.yaml": "name: ts-badopt\nruntime:\n  name: nodejs\n  options:\n    nodeargs: 4096\n",
      "index.ts": tsProgram("index.ts"),
    });
    const { outputs, output } = await up("ts-badopt", dir);
    expect(outputs).toBeUndefined();
    expect(output).toMatch(/runtime\.options\.nodeargs must be a string/);
  }, 120_000);
});

describe("a Pulumi YAML program (runtime: yaml)", () => {
  test("runs under the engine: variables, an interpolated output and the stack's config", async () => {
    const dir = project("yaml", {
      "Pulumi.yaml": [
        "name: yaml-smoke",
        "runtime: yaml",
        "variables:",
        "  greeting: hello",
        "outputs:",
        "  message: ${greeting} from ${pulumi.project}",
        "  endpoint: ${vplatform:endpoint}",
        "",
      ].join("\n"),
    });
    const { outputs, output } = await up("yaml-smoke", dir);
    expect({ outputs, output }).toMatchObject({
      outputs: { message: "hello from yaml-smoke", endpoint: expect.stringMatching(/^https:\/\/127\.0\.0\.1:\d+$/) },
    });
    expect(output).not.toMatch(/from \$PATH/);
  }, 120_000);
});
