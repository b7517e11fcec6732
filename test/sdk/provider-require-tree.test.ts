import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

// What a provider user's process loads: the SDK (program side) and every
// dynamic resource's entry module (provider side), by their package names,
// and every module of provider/resources, from the installed build — in a
// child process, so nothing this test runner loaded counts.
const root = path.resolve(__dirname, "../..");
const modulesOf = (dir: string) =>
  fs
    .readdirSync(path.join(root, dir))
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && !f.endsWith(".typecheck.ts"))
    .map((f) => f.replace(/\.ts$/, ""));
const entries = modulesOf("provider/dynamic").map((r) => `vplatform/dynamic/${r}`);
// Not exported by name (the package's exports list only the entry modules): loaded by their installed path.
const resources = modulesOf("provider/resources").map((r) => path.join(root, "node_modules/vplatform/dist/provider/resources", r));

function packagesLoadedBy(specifiers: string[]): string[] {
  const script = `
    for (const s of ${JSON.stringify(specifiers)}) require(s);
    const names = Object.keys(require.cache).flatMap((f) => {
      const m = /.*node_modules[\\\\/]((?:@[^\\\\/]+[\\\\/])?[^\\\\/]+)/.exec(f);
      return m ? [m[1].replace(/\\\\/g, "/")] : [];
    });
    process.stdout.write(JSON.stringify([...new Set(names)]));`;
  return JSON.parse(execFileSync(process.execPath, ["-e", script], { cwd: root, encoding: "utf8" }));
}

/** The files a child process has loaded after requiring `specifiers` (and running `then`). */
function filesLoadedBy(specifiers: string[], then = ""): string[] {
  const script = `for (const s of ${JSON.stringify(specifiers)}) require(s); ${then} process.stdout.write(JSON.stringify(Object.keys(require.cache)));`;
  return JSON.parse(execFileSync(process.execPath, ["-e", script], { cwd: root, encoding: "utf8" }));
}
const packagesIn = (files: string[]) => [
  ...new Set(files.flatMap((f) => /.*node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(f)?.[1] ?? [])),
];

const EMULATOR_STACK = /^(fastify|@fastify\/.*|selfsigned|pino|light-my-request|avvio)$/;

describe("a provider user's require tree holds nothing of the emulator's server stack", () => {
  beforeAll(() => {
    if (!fs.existsSync(path.join(root, "dist/sdk/index.js"))) throw new Error("dist/ is missing: run `npm run build` (./dev test does)");
  });

  test("the SDK, every dynamic entry module and every resource implementation load without Fastify or selfsigned", () => {
    const loaded = packagesLoadedBy(["vplatform", ...entries, ...resources]);
    expect(loaded).toEqual(expect.arrayContaining(["@pulumi/pulumi", "zod"]));
    expect(loaded.filter((p) => EMULATOR_STACK.test(p))).toEqual([]);
  });

  test("the emulator entry point does load them (the check sees a server stack when there is one)", () => {
    const loaded = packagesLoadedBy(["vplatform/emulator"]);
    expect(loaded).toEqual(expect.arrayContaining(["fastify", "selfsigned"]));
  });
});

describe("a dynamic resource's provider loads only what its operation needs", () => {
  test("its entry module loads no HTTP client, and no module of the env CLI, the emulator or the plugin: a preview sends nothing", () => {
    const files = filesLoadedBy(entries);
    expect(packagesIn(files).filter((p) => p === "got" || EMULATOR_STACK.test(p))).toEqual([]);
    expect(files.filter((f) => /[\\/]dist[\\/](env|emulator|provider[\\/]plugin)[\\/]/.test(f))).toEqual([]);
  });

  test("the HTTP client loads with the first request (the check sees got when it is loaded)", () => {
    const files = filesLoadedBy(["vplatform/dynamic/vnet"], "require('got');");
    expect(packagesIn(files)).toContain("got");
  });
});
