// The fast form of `npm run bench -- --fixed-cost` (bench/fixedCost/): the scenario itself, at 2 VMs, this
// checkout only, once per command, so CI proves the figures it prints are real ones — three doors, each
// command run by the real engine against the emulator, its wall time split into phases that add up.
import * as path from "node:path";
import { findRepoRoot } from "../../env/local-stack";
import type { FixedCostRow } from "../../bench/fixedCost/run";
import { PHASES } from "../../bench/fixedCost/timeline";

const dist = path.join(findRepoRoot(), "dist", "bench", "fixedCost", "run.js");
let rows: FixedCostRow[];

beforeAll(async () => {
  const { benchFixedCost } = require(dist) as typeof import("../../bench/fixedCost/run");
  rows = await benchFixedCost({ sizes: [2], repeats: 1, baseline: false, markdown: false });
}, 600_000);

const row = (door: string, op: string) => rows.find((r) => r.door === door && r.op === op)!;

describe("the fixed-cost scenario measures each door's commands under the real engine", () => {
  test("a preview and a refresh through each door: TypeScript, vplatform env and the plugin", () => {
    expect(rows.map((r) => `${r.door} ${r.op}`).sort()).toEqual([
      "plugin preview",
      "plugin refresh",
      "typescript preview",
      "typescript refresh",
      "yaml preview",
      "yaml refresh",
    ]);
  });

  test("a no-change preview sends no request; a refresh reads each table once, whatever the lab's size", () => {
    for (const door of ["typescript", "yaml", "plugin"]) {
      expect(row(door, "preview").requests).toBe(0);
      expect(row(door, "refresh").requests).toBeGreaterThan(0);
      expect(row(door, "refresh").requests).toBeLessThanOrEqual(5);
    }
  });

  test("the phases add up to each command's wall time, and each door shows the phases it has", () => {
    for (const r of rows) expect(PHASES.reduce((sum, p) => sum + r.split[p], 0)).toBeCloseTo(r.split.total, 6);
    const ts = row("typescript", "preview").split;
    expect(ts["language host"]).toBeGreaterThan(0);
    expect(ts.program).toBeGreaterThan(0);
    expect(ts["provider start"]).toBeGreaterThan(0);
    const env = row("yaml", "preview").split;
    expect(env["before the engine"]).toBeGreaterThan(0); // the CLI's own Node start and set-up commands
    expect(env["language host"]).toBe(0); // an inline program
    expect(row("typescript", "refresh").split["first request"]).toBeGreaterThan(0);
    // The plugin's own process, not the language host's `node -e` that resolves its runner.
    expect(row("plugin", "preview").split["provider start"]).toBeGreaterThan(50);
  });
});
