import * as fs from "node:fs";
import * as path from "node:path";
import { requestsChart, scenario, scenarios, transitionsChart } from "./charts";
import { floor, type Measured, type Op, OPS } from "./figures";
import * as os from "node:os";
import { chartFiles, committedResults, mergeResults, RESULTS, readResults, recordResults } from "./results";

const root = path.resolve(__dirname, "..");

const measured = (op: Op, requests: number, extra: Partial<Measured> = {}): Measured => ({
  vms: 50,
  speed: "lab",
  variant: "default",
  parallel: 8,
  checkpoints: true,
  op,
  requests,
  seconds: 10,
  peakMiB: 200,
  ...extra,
});
const lifecycle = (perVm: number, extra: Partial<Measured> = {}) => OPS.map((op) => measured(op, perVm * (extra.vms ?? 50), extra));

describe("the charts' series are scenarios: a variant with its state writes, recorded or not", () => {
  test("named without the parallelism, which grows with N for the env CLI's variant", () => {
    expect(scenario(measured("up", 1, { variant: "env", parallel: 200 }))).toBe(
      scenario(measured("up", 1, { variant: "env", parallel: 800 })),
    );
    expect(scenario(measured("up", 1, { checkpoints: false, recorded: true }))).toBe("default (no checkpoints) (recorded)");
  });
  test("each has its own colour, the same in every chart, and recorded ones are dashed", () => {
    const all = [...lifecycle(9, { variant: "old", recorded: true }), ...lifecycle(5)];
    const [old, now] = scenarios(all);
    expect(old).toMatchObject({ name: "old (recorded)", dashed: true });
    expect(now).toMatchObject({ name: "default", dashed: false });
    expect(old.color).not.toBe(now.color);
  });
  test("more scenarios than colours is an error, not two series looking alike", () => {
    const many = Array.from({ length: 11 }, (_, i) => measured("up", 1, { variant: `v${i}` }));
    expect(() => scenarios(many)).toThrow(/11 scenarios, but only 10 colours/);
  });
});

describe("(a) requests per VM against the floor", () => {
  const results = [
    ...lifecycle(9, { variant: "old", recorded: true }),
    ...lifecycle(5),
    ...lifecycle(4, { vms: 200 }),
    measured("up", 6000, { vms: 1000 }),
    ...lifecycle(20, { speed: "×10" }),
  ];
  const chart = requestsChart(results, "lab");
  test("a panel per operation with a floor above 0, and the whole lifecycle", () => {
    expect(chart.panels.map((p) => p.title)).toEqual(["up", "refresh", "grow", "destroy", "lifecycle"]);
    expect(chart.categories).toEqual(["50", "200", "1000"]);
  });
  test("the floor's line is each operation's floor per VM at each N", () => {
    const up = chart.panels[0].series[0];
    expect(up.values).toEqual([50, 200, 1000].map((n) => floor("up", n) / n));
    const whole = chart.panels[4].series[0].values;
    expect(whole[0]).toBeCloseTo(OPS.reduce((s, op) => s + floor(op, 50), 0) / 50);
  });
  test("a scenario's line is its requests over its VMs; a lifecycle only where every operation was measured", () => {
    const up = chart.panels[0].series.find((s) => s.name === "default")!;
    expect(up.values).toEqual([5, 4, 6]);
    const whole = chart.panels[4].series.find((s) => s.name === "default")!;
    expect(whole.values).toEqual([25, 20, undefined]);
  });
  test("only the chart's speed is plotted", () => {
    expect(requestsChart(results, "×10").categories).toEqual(["50"]);
    expect(requestsChart(results, "×10").panels[0].series.find((s) => s.name === "default")!.values).toEqual([20]);
  });
});

describe("(b) wall time in transitions", () => {
  const timed = (op: Op, seconds: number, extra: Partial<Measured> = {}) =>
    measured(op, 1, { speed: "×10", transitionMs: op === "up" ? 20_000 : 30_000, seconds, ...extra });
  const chart = transitionsChart([
    timed("up", 900, { variant: "old", recorded: true }),
    timed("up", 160),
    timed("destroy", 240),
    measured("up", 1, { transitionMs: 20, seconds: 30 }),
    timed("refresh", 2),
  ]);
  test("a group per operation timed in transitions and N: lab speed (20 ms, no yardstick) and other operations left out", () => {
    expect(chart.categories).toEqual(["up, 50 VMs", "destroy, 50 VMs"]);
  });
  test("a bar is the operation's seconds over one transition, per scenario", () => {
    expect(chart.series.map((s) => [s.name, s.values])).toEqual([
      ["old (recorded)", [45, undefined]],
      ["default", [8, 8]],
    ]);
  });
});

describe("recording a run into bench/results/current.jsonl", () => {
  test("a lab's and variant's operations replace the same ones in place; new ones are added after", () => {
    const earlier = [measured("up", 300), measured("up", 1200, { vms: 200 }), measured("destroy", 160)];
    const later = [measured("up", 280), measured("up", 6000, { vms: 1000 })];
    expect(mergeResults(earlier, later).map((r) => [r.vms, r.op, r.requests])).toEqual([
      [50, "up", 280],
      [200, "up", 1200],
      [50, "destroy", 160],
      [1000, "up", 6000],
    ]);
  });
  test("--record writes the run into current.jsonl and redraws the charts from it", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-record-"));
    try {
      fs.cpSync(path.join(root, "bench", "results"), path.join(dir, "bench", "results"), { recursive: true });
      const run = lifecycle(5, { vms: 400, speed: "×10", transitionMs: 20_000, seconds: 400 });
      expect(recordResults(dir, run)).toEqual([RESULTS.current, ...Object.keys(chartFiles(root))]);
      expect(readResults(path.join(dir, RESULTS.current)).slice(-run.length)).toEqual(run);
      expect(fs.readFileSync(path.join(dir, "docs", "costs", "wall-time-in-transitions.svg"), "utf8")).toContain("up, 400 VMs");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
  test("another variant of the same lab is another figure", () => {
    expect(mergeResults([measured("up", 300)], [measured("up", 280, { checkpoints: false })])).toHaveLength(2);
  });
});

describe("the committed charts (docs/costs/*.svg)", () => {
  const files = chartFiles(root);
  test.each(Object.entries(files))("%s is what the figures in bench/results/ draw (run `npm run charts`)", (file, svg) => {
    expect(fs.readFileSync(path.join(root, file), "utf8")).toBe(svg);
  });
  test("no chart is left in docs/costs/ that the figures no longer draw", () => {
    const committed = fs.readdirSync(path.join(root, "docs", "costs")).map((f) => `docs/costs/${f}`);
    expect(committed.sort()).toEqual(Object.keys(files).sort());
  });
  test("docs/costs.md shows every chart as an image", () => {
    const page = fs.readFileSync(path.join(root, "docs", "costs.md"), "utf8");
    for (const file of Object.keys(files)) expect(page).toContain(`](${path.posix.relative("docs", file)})`);
  });
  test("the figures hold a baseline and a current run of each chart's kind (sanity: the charts are not empty)", () => {
    const results = committedResults(root);
    expect(results.some((r) => r.recorded)).toBe(true);
    expect(results.some((r) => !r.recorded && (r.transitionMs ?? 0) >= 1000)).toBe(true);
  });
});
