// The benchmark's figures as data: one measured operation per JSON line.
//   bench/results/baseline.jsonl  earlier releases' figures (the previous per-resource behaviour as
//                                 "baseline", main before issue 21 as "main-25ee4f7 …"), shown as recorded
//   bench/results/current.jsonl   this release's figures; `npm run bench -- --record` writes a run's into it
// The costs page's charts are drawn from both (bench/charts.ts); `npm run charts` redraws them.
import * as fs from "node:fs";
import * as path from "node:path";
import { renderCharts } from "./charts";
import { type Measured, variantLabel } from "./figures";

export const RESULTS = { baseline: "bench/results/baseline.jsonl", current: "bench/results/current.jsonl" } as const;

export function readResults(file: string): Measured[] {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Measured);
}

export const toJsonLines = (results: Measured[]): string => results.map((r) => `${JSON.stringify(r)}\n`).join("");

/** One measured operation of one lab and variant: a later run's figure replaces an earlier one's. */
const identity = (r: Measured) => `${r.vms}|${r.speed}|${variantLabel(r)}|${r.op}`;

/** `earlier` with `later`'s operations in place of the same lab's, variant's and operation's, the new ones after. */
export function mergeResults(earlier: Measured[], later: Measured[]): Measured[] {
  const replaced = new Map(later.map((r) => [identity(r), r]));
  const kept = earlier.map((r) => replaced.get(identity(r)) ?? r);
  const known = new Set(earlier.map(identity));
  return [...kept, ...later.filter((r) => !known.has(identity(r)))];
}

/** The recorded figures (earlier ones marked recorded) and the current ones, from the committed files under `root`. */
export function committedResults(root: string): Measured[] {
  return [
    ...readResults(path.join(root, RESULTS.baseline)).map((r) => ({ ...r, recorded: true })),
    ...readResults(path.join(root, RESULTS.current)),
  ];
}

/** The costs page's charts by path under `root`, drawn from the committed figures. */
export const chartFiles = (root: string): Record<string, string> => renderCharts(committedResults(root));

/** Writes the charts whose text changed; returns their paths. */
export function writeCharts(root: string): string[] {
  const written: string[] = [];
  for (const [file, svg] of Object.entries(chartFiles(root))) {
    const target = path.join(root, file);
    if (fs.existsSync(target) && fs.readFileSync(target, "utf8") === svg) continue;
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, svg);
    written.push(file);
  }
  return written;
}

/** Records a run's figures in bench/results/current.jsonl (replacing the same lab's and variant's) and redraws the charts. */
export function recordResults(root: string, measured: Measured[]): string[] {
  const file = path.join(root, RESULTS.current);
  fs.writeFileSync(file, toJsonLines(mergeResults(readResults(file), measured)));
  return [RESULTS.current, ...writeCharts(root)];
}
