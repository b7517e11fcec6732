/**
 * The emulator's layers point one way: the contracts (model/) at the bottom, the query language beside them on
 * its own; the table engine (engine/) implements the contracts; the services (services/<area>/) hold the tables
 * and their behaviour, each using only the services listed before it in services/index.ts; the API's operations (requests/) compose access and engine; the server, the console, the admin
 * controls and persistence compose all of it; the entry points (index.ts, cli.ts, bench.ts) sit on top. Every
 * table's name is in the model (model/names/<area>.ts, one file a service), so any layer may name any table. Each
 * rule reads the import statements of the source files (tests excluded), so a new import the wrong way fails here.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { allServices } from "../../emulator/services";
import { type Edge, edges, root, sourceFiles } from "../importGraph";

/** Rank of each folder (and top-level file) of emulator/: a module may import its own folder or a lower rank. */
const RANKS: Record<string, number> = {
  "emulator/model": 0,
  "emulator/query": 0,
  "emulator/engine": 1,
  "emulator/services": 2,
  "emulator/requests": 3,
  "emulator/admin": 4,
  "emulator/client": 4,
  "emulator/console": 4,
  "emulator/persistence": 4,
  "emulator/server": 4,
  "emulator/index.ts": 5,
  "emulator/cli.ts": 5,
  "emulator/bench.ts": 5,
};

/** A relative import's module as a file (`emulator/engine/read.ts`), or the package name. */
const fileOf = (target: string) =>
  !target.startsWith("emulator") ? target : fs.existsSync(path.join(root, `${target}.ts`)) ? `${target}.ts` : `${target}/index.ts`;

const graph: Edge[] = edges(["emulator"]).map((e) => ({ from: e.from, to: fileOf(e.to) }));

const layerOf = (file: string) => Object.keys(RANKS).find((layer) => file === layer || file.startsWith(`${layer}/`));

/** The services' folders in registration order, each found by where its tables' names are declared (model/names/<area>.ts). */
const serviceFolders = allServices().map((service) => {
  const declaring = sourceFiles("emulator/model/names").filter((file) =>
    service.tables.every((def) => fs.readFileSync(path.join(root, file), "utf8").includes(`"${def.name}"`)),
  );
  return `emulator/services/${path.basename(declaring[0], ".ts")}`;
});
const serviceRank = (file: string) => serviceFolders.findIndex((folder) => file.startsWith(`${folder}/`));
const isNames = (file: string) => file.startsWith("emulator/model/names/");

/** Imports to a higher layer, and between services, to one listed later. */
function upward(all: Edge[]): string[] {
  return all
    .filter((e) => e.to.startsWith("emulator/"))
    .filter((e) => {
      const [from, to] = [layerOf(e.from), layerOf(e.to)];
      if (from === undefined || to === undefined) return true;
      if (RANKS[to] > RANKS[from] || (from !== to && RANKS[to] === RANKS[from] && RANKS[from] < 4)) return true;
      if (from !== "emulator/services" || to !== "emulator/services") return false;
      if (e.from === "emulator/services/index.ts") return false; // the list composes the services
      return serviceRank(e.to) > serviceRank(e.from) || e.to === "emulator/services/index.ts";
    })
    .map((e) => `${e.from} → ${e.to}`);
}

describe("the emulator's layers (model → engine → services → requests → server, console, admin, persistence → entry points)", () => {
  test("every folder and top-level module of emulator/ has a rank", () => {
    const entries = fs
      .readdirSync(path.join(root, "emulator"), { withFileTypes: true })
      .filter((d) => d.isDirectory() || d.name.endsWith(".ts"))
      .map((d) => `emulator/${d.name}`);
    expect(entries.filter((entry) => RANKS[entry] === undefined)).toEqual([]);
  });

  test("every service folder is a service of the list, in one place", () => {
    const folders = fs
      .readdirSync(path.join(root, "emulator/services"), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => `emulator/services/${d.name}`);
    expect([...serviceFolders].sort()).toEqual(folders.sort());
  });

  test("the rule sees an import that runs up, between layers and between services", () => {
    const [compute, cluster] = ["emulator/services/compute", "emulator/services/cluster"];
    expect(serviceRank(`${compute}/x.ts`)).toBeLessThan(serviceRank(`${cluster}/x.ts`));
    expect(
      upward([
        { from: "emulator/engine/read.ts", to: "emulator/services/identity/access.ts" },
        { from: `${compute}/power.ts`, to: `${cluster}/nodes.ts` },
        { from: `${compute}/power.ts`, to: "emulator/model/names/cluster.ts" },
        { from: `${cluster}/nodes.ts`, to: `${compute}/machines.ts` },
        { from: "emulator/model/types.ts", to: "emulator/query/index.ts" },
      ]),
    ).toEqual([
      "emulator/engine/read.ts → emulator/services/identity/access.ts",
      `${compute}/power.ts → ${cluster}/nodes.ts`,
      "emulator/model/types.ts → emulator/query/index.ts",
    ]);
  });

  test("no module imports a layer above its own, or a service listed after its own", () => {
    expect(upward(graph)).toEqual([]);
  });

  test("the table names (model/names/) import only the rest of the model (so any layer may name any table)", () => {
    const wrong = graph.filter((e) => isNames(e.from) && e.to.startsWith("emulator/") && layerOf(e.to) !== "emulator/model");
    expect(wrong.map((e) => `${e.from} → ${e.to}`)).toEqual([]);
  });

  test("only the entry point composes the HTTP server", () => {
    const wrong = graph.filter(
      (e) => e.to.startsWith("emulator/server/") && !e.from.startsWith("emulator/server/") && e.from !== "emulator/index.ts",
    );
    expect(wrong.map((e) => `${e.from} → ${e.to}`)).toEqual([]);
  });

  test("nothing in the emulator imports the provider, the SDK or the environment loader", () => {
    const wrong = graph.filter((e) => /^(provider|sdk|env)\//.test(e.to));
    expect(wrong.map((e) => `${e.from} → ${e.to}`)).toEqual([]);
  });
});
