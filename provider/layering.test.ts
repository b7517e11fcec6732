// The provider's floors point one way: schemas (with the platform's table catalogue and the hidden inputs) and config
// at the bottom, then client, plan, reconcile, the resources' framework, the resource folders, the registry
// (provider/resources/*.ts), the doors (plugin, dynamic), and the SDK on top. A file's floor is its folder's: nothing
// below provider/resources/ knows an individual resource. Only provider/client talks HTTP. No module of the
// provider, the SDK or the emulator imports itself back through others. These tests read every import of the
// source (tests excluded) and fail on one that goes the wrong way.
import * as fs from "node:fs";
import * as path from "node:path";
import { type Edge, edges, importsOf, root, sourceFiles } from "../test/importGraph";

/** Rank of each floor: a module may import its own floor or a strictly lower one. */
const RANKS: Record<string, number> = {
  "provider/schemas": 0,
  "provider/config": 0,
  "provider/client": 1,
  "provider/plan": 2,
  "provider/reconcile": 3,
  "provider/resources/framework": 4,
  /** Every resource's folder (provider/resources/<resource>/): one floor, the resources side by side. */
  "provider/resources/<resource>": 5,
  /** The registry and what is derived from the whole list (provider/resources/*.ts). */
  "provider/resources": 6,
  "provider/plugin": 7,
  "provider/dynamic": 7,
  sdk: 8,
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

/** The floor of a repository-relative file (or import target, without `.ts`), if it is in one. */
function layerOf(file: string): string | undefined {
  if (/^provider\/resources\/framework(\/|$)/.test(file)) return "provider/resources/framework";
  if (/^provider\/resources\/[^/]+\//.test(file)) return "provider/resources/<resource>";
  if (/^provider\/resources\/[^/]+$/.test(file)) return "provider/resources";
  return Object.keys(RANKS)
    .filter((layer) => !layer.includes("<"))
    .find((layer) => file === layer || file.startsWith(`${layer}/`));
}

/** The resource folder an import target is in (`vnet` for provider/resources/vnet/schema), if any. */
const resourceFolderOf = (target: string): string | undefined =>
  layerOf(target) === "provider/resources/<resource>" ? target.split("/")[2] : undefined;

const providerAndSdk = edges(["provider", "sdk"]);

describe("provider floors (schemas → client → plan → reconcile → framework → resource folders → registry → doors → sdk)", () => {
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

  test("a file's floor is its folder's", () => {
    expect(layerOf("provider/resources/vnet/schema")).toBe("provider/resources/<resource>");
    expect(layerOf("provider/resources/framework/defineResource")).toBe("provider/resources/framework");
    expect(layerOf("provider/resources/index")).toBe("provider/resources");
    expect(layerOf("provider/schemas/tables")).toBe("provider/schemas");
    expect(resourceFolderOf("provider/resources/virtualMachine/schema")).toBe("virtualMachine");
    expect(resourceFolderOf("provider/resources/framework/nameTaken")).toBeUndefined();
  });

  test("nothing below provider/resources/ (schemas, client, plan, reconcile, framework) imports a resource's folder", () => {
    const below = (file: string) => {
      const floor = layerOf(file);
      return floor !== undefined && RANKS[floor] < RANKS["provider/resources/<resource>"];
    };
    const wrong = providerAndSdk.filter((e) => below(e.from) && resourceFolderOf(e.to) !== undefined).map((e) => `${e.from} → ${e.to}`);
    expect(wrong).toEqual([]);
  });

  test("no module imports a floor above its own, or a sibling floor", () => {
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
