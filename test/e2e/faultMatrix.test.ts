// The fault matrix under the real engine (see faultMatrix/engineMatrix.ts): one engine run per
// op × fault covers every resource kind. CI runs one such run (a create under a late answer: 16
// cells); `npm run test:faults:engine` runs all 24 (384 cells) and prints the matrix.
import { FAULT_NAMES, formatMatrix, type Op } from "../provider/faultMatrix/faults";
import { ENGINE_KINDS, runEngineCell } from "./faultMatrix/engineMatrix";

const full = process.env.VPLATFORM_FAULT_MATRIX === "full";
const OPS: Op[] = ["create", "update", "delete"];
const only = process.env.VPLATFORM_FAULT_MATRIX_ONLY; // "create/500,update/429": just those runs, to look into cells
const runs: [Op, string][] = only
  ? only.split(",").map((run) => run.split("/") as [Op, string])
  : full
    ? OPS.flatMap((op) => FAULT_NAMES.map((f) => [op, f] as [Op, string]))
    : [["create", "late answer"]];
const results = new Map<Op, Map<string, boolean>>(OPS.map((op) => [op, new Map()]));
const started = Date.now();

afterAll(() => {
  const tables = OPS.filter((op) => results.get(op)!.size).map((op) =>
    formatMatrix(
      op,
      ENGINE_KINDS.map((k) => k.name),
      results.get(op)!,
    ),
  );
  const all = [...results.values()].flatMap((m) => [...m.values()]);
  process.stdout.write(
    `\nfault matrix, under the engine:\n${tables.join("\n\n")}\n` +
      `total: ${all.filter(Boolean).length}/${all.length} cells clean in ${runs.length} engine runs, ${Math.round((Date.now() - started) / 1000)} s\n`,
  );
});

describe.each(runs)("%s of every resource kind under %s, under the engine, then a second up", (op, fault) => {
  test("each kind: no orphan, no duplicate, no state entry without a row, refresh and preview clean", async () => {
    const cells = await runEngineCell(op, fault);
    for (const [kind, r] of cells) results.get(op)!.set(`${kind}/${fault}`, r.clean);
    const dirty = [...cells].filter(([, r]) => !r.clean).map(([kind, r]) => `${kind}: ${r.detail}`);
    expect(dirty).toEqual([]);
  }, 600_000);
});
