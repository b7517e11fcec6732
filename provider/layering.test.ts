// The provider's layers point one way: schemas (and config) at the bottom, then
// client, plan, reconcile, resources, the doors (plugin, dynamic), and the SDK on top. Only
// provider/client talks HTTP. No module of the provider, the SDK or the
// emulator imports itself back through others. These tests read every import
// of the source (tests excluded) and fail on one that goes the wrong way.
import * as fs from "node:fs";
import * as path from "node:path";
import { type Edge, edges, importsOf, root, sourceFiles } from "../test/importGraph";

/** Rank of each layer: a module may import its own directory or a strictly lower rank. */
const RANKS: Record<string, number> = {
  "provider/schemas": 0,
  "provider/config": 0,
  "provider/client": 1,
  "provider/plan": 2,
  "provider/reconcile": 3,
  "provider/resources": 4,
  "provider/plugin": 5,
  "provider/dynamic": 5,
  sdk: 6,
};

/** Modules that open network connections: only provider/client may load them. */
const NETWORK_MODULES = new Set([
  "got",
  "http",
  "https",
  "http2",
  "net",
  "tls",
  "undici",
  "node:http",
  "node:https",
  "node:http2",
  "node:net",
  "node:tls",
]);

/**
 * A resource's folder (provider/resources/<resource>/) holds its part of three layers: its input schema
 * (`schema.ts`, with the schemas), its platform operations and row mapping (`platform.ts`, with reconcile),
 * and its declaration (with the resources).
 */
const RESOURCE_FOLDER_FILES: Record<string, string> = { schema: "provider/schemas", platform: "provider/reconcile" };

/** The layer of a repository-relative file, if it is in one. */
function layerOf(file: string): string | undefined {
  const inResourceFolder = /^provider\/resources\/(?!framework\/)[^/]+\/([^/.]+)(?:\.ts)?$/.exec(file);
  if (inResourceFolder) return RESOURCE_FOLDER_FILES[inResourceFolder[1]] ?? "provider/resources";
  return Object.keys(RANKS).find((layer) => file === layer || file.startsWith(`${layer}/`));
}

const providerAndSdk = edges(["provider", "sdk"]);

describe("provider layers (schemas → client → plan → reconcile → resources → plugin → sdk)", () => {
  test("the rule sees imports of every form", () => {
    const text = `import { a } from "../plan/diff";\nimport type { B } from "./b";\nexport { c } from "../c";\nimport "../side";\nconst d = require("../d");\nawait import("../e");`;
    expect(importsOf(text)).toEqual(["../plan/diff", "./b", "../c", "../side", "../d", "../e"]);
  });

  test("every provider directory has a rank", () => {
    const dirs = fs
      .readdirSync(path.join(root, "provider"), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => `provider/${d.name}`);
    expect(dirs.filter((d) => RANKS[d] === undefined)).toEqual([]);
  });

  test("no module imports a layer above its own, or a sibling layer", () => {
    const wrong = providerAndSdk
      .filter((e) => e.to.startsWith("provider") || e.to.startsWith("sdk"))
      .filter((e) => {
        const [from, to] = [layerOf(e.from), layerOf(e.to)];
        return from !== undefined && to !== undefined && from !== to && RANKS[to] >= RANKS[from];
      })
      .map((e) => `${e.from} → ${e.to}`);
    expect(wrong).toEqual([]);
  });

  test("the provider and the SDK never load the emulator, the environment loader, scripts or tests", () => {
    const wrong = providerAndSdk
      .filter((e) => /^(emulator|env|scripts|test|bench|tools)(\/|$)/.test(e.to))
      .map((e) => `${e.from} → ${e.to}`);
    expect(wrong).toEqual([]);
  });
});

describe("only provider/client talks HTTP", () => {
  test("no module outside provider/client loads a network module", () => {
    const wrong = providerAndSdk
      .filter((e) => NETWORK_MODULES.has(e.to) && !e.from.startsWith("provider/client/"))
      .map((e) => `${e.from} → ${e.to}`);
    expect(wrong).toEqual([]);
  });

  test("no module outside provider/client calls fetch", () => {
    const files = ["provider", "sdk"].flatMap(sourceFiles).filter((f) => !f.startsWith("provider/client/"));
    expect(files.filter((f) => /\bfetch\s*\(/.test(fs.readFileSync(path.join(root, f), "utf8")))).toEqual([]);
  });

  test("the client does (so the rule above guards something real)", () => {
    expect(providerAndSdk.some((e) => e.from.startsWith("provider/client/") && NETWORK_MODULES.has(e.to))).toBe(true);
  });
});

describe("no import cycles (provider, SDK, emulator)", () => {
  /** The module a relative import names (without .ts), if it is one of ours. */
  const moduleOf = (target: string) =>
    fs.existsSync(path.join(root, `${target}.ts`))
      ? target
      : fs.existsSync(path.join(root, target, "index.ts"))
        ? path.join(target, "index")
        : undefined;

  /** Every cycle found by a depth-first walk, as the modules along it. */
  function cycles(all: Edge[]): string[][] {
    const next = new Map<string, string[]>();
    for (const e of all) {
      const to = e.to.startsWith(".") || e.to.includes("/") ? moduleOf(e.to) : undefined;
      const from = e.from.replace(/\.ts$/, "");
      if (to) next.set(from, [...(next.get(from) ?? []), to]);
    }
    const state = new Map<string, "open" | "done">();
    const found: string[][] = [];
    const walk = (m: string, trail: string[]) => {
      state.set(m, "open");
      for (const n of next.get(m) ?? []) {
        if (state.get(n) === "open") found.push([...trail.slice(trail.indexOf(n)), m, n]);
        else if (!state.has(n)) walk(n, [...trail, m]);
      }
      state.set(m, "done");
    };
    for (const m of next.keys()) if (!state.has(m)) walk(m, []);
    return found;
  }

  test("a cycle is found when there is one (the walk works)", () => {
    const a = "provider/schemas/common.ts";
    const b = "provider/schemas/normalize.ts";
    expect(
      cycles([
        { from: a, to: b.replace(/\.ts$/, "") },
        { from: b, to: a.replace(/\.ts$/, "") },
      ]),
    ).toHaveLength(1);
  });

  test("no module imports itself back", () => {
    expect(cycles(edges(["provider", "sdk", "emulator"])).map((c) => c.join(" → "))).toEqual([]);
  });
});
