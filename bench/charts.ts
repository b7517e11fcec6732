// The costs page's charts (docs/costs/*.svg), derived from the recorded figures
// (bench/results/*.jsonl) and drawn by bench/svg.ts. Pure: the data in, the SVG
// text out; bench/results.ts reads the files and writes the charts.
import { floor, inTransitions, labs, lifecycleRequests, type Measured, OPS, variantLabel } from "./figures";
import { type BarChart, type LineChart, renderBarChart, renderLineChart, type Series } from "./svg";

/** Distinct at a glance, and each a fill a pixel check can find. */
const PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f"];
const FLOOR_COLOR = "#000000";

/**
 * A series of the charts: a variant, its state writes and whether recorded ("main-25ee4f7 env (recorded)",
 * "default (no checkpoints)"); its parallelism follows from the variant (the env CLI's grows with N).
 */
export const scenario = (r: Measured): string => variantLabel({ ...r, parallel: undefined });

type Scenario = Pick<Series, "name" | "color" | "dashed">;

/** Every scenario of the figures with its colour (the same in every chart), recorded ones dashed, in the order first seen. */
export function scenarios(results: Measured[]): Scenario[] {
  const names = [...new Set(results.map(scenario))];
  if (names.length > PALETTE.length) throw new Error(`${names.length} scenarios, but only ${PALETTE.length} colours to tell them apart`);
  return names.map((name, i) => ({ name, color: PALETTE[i], dashed: results.some((r) => scenario(r) === name && r.recorded) }));
}

const speedText = (speed: string) => (speed === "lab" ? "lab speed" : `${speed} speed`);

const byVms = (results: Measured[]) => [...new Set(results.map((r) => r.vms))].sort((a, b) => a - b);

/** The operations with a floor above 0 (preview's is 0: nothing to plot on a log axis), and the whole lifecycle. */
const REQUEST_PANELS = [...OPS.filter((op) => floor(op, 1) > 0), "lifecycle"] as const;
type RequestPanel = (typeof REQUEST_PANELS)[number];

/** Requests per VM of an operation (or a whole lifecycle) of one scenario at N VMs; undefined when not measured. */
function requestsPerVm(results: Measured[], panel: RequestPanel, name: string, vms: number): number | undefined {
  if (panel !== "lifecycle") {
    const r = results.find((m) => m.op === panel && m.vms === vms && scenario(m) === name);
    return r && r.requests / vms;
  }
  const lab = labs(results.filter((m) => m.vms === vms && scenario(m) === name))[0];
  const total = lab && lifecycleRequests(lab);
  return total === undefined ? undefined : total / vms;
}

const floorPerVm = (panel: RequestPanel, vms: number) =>
  (panel === "lifecycle" ? OPS.reduce((s, op) => s + floor(op, vms), 0) : floor(panel, vms)) / vms;

/**
 * (a) Requests per VM against the floor at one speed: a panel per operation, N along x, a line per scenario
 * (coloured as in `all`'s scenarios) and the floor's.
 */
export function requestsChart(all: Measured[], speed: string): LineChart {
  const results = all.filter((r) => r.speed === speed);
  const vms = byVms(results);
  const present = new Set(results.map(scenario));
  return {
    title: `API requests per VM against the floor (log scale), by operation and lab size, ${speedText(speed)}`,
    categories: vms.map(String),
    xLabel: "VMs in the lab",
    yLabel: "requests per VM",
    logY: true,
    panels: REQUEST_PANELS.map((panel) => ({
      title: panel,
      series: [
        { name: "floor (what no client can avoid)", color: FLOOR_COLOR, dashed: true, values: vms.map((n) => floorPerVm(panel, n)) },
        ...scenarios(all)
          .filter((s) => present.has(s.name))
          .map((s): Series => ({ ...s, values: vms.map((n) => requestsPerVm(results, panel, s.name, n)) })),
      ],
    })),
  };
}

/** The operations whose wall time is counted in the emulator's transitions (up: power-ons, destroy: power-offs). */
const TRANSITION_OPS = ["up", "destroy"] as const;

/** (b) Wall time in transitions at a realistic speed: a group per operation and N, a bar per scenario. */
export function transitionsChart(all: Measured[]): BarChart {
  const timed = all.filter((r) => inTransitions(r) !== undefined);
  const groups = TRANSITION_OPS.flatMap((op) => byVms(timed.filter((r) => r.op === op)).map((vms) => ({ op, vms })));
  const present = new Set(timed.map(scenario));
  return {
    title: `Wall time in transitions at ${[...new Set(timed.map((r) => speedText(r.speed)))].join(", ")}: up in power-ons, destroy in power-offs`,
    categories: groups.map(({ op, vms }) => `${op}, ${vms} VMs`),
    yLabel: "seconds ÷ one transition",
    series: scenarios(all)
      .filter((s) => present.has(s.name))
      .map((s) => ({
        ...s,
        values: groups.map(({ op, vms }) => {
          const r = timed.find((m) => m.op === op && m.vms === vms && scenario(m) === s.name);
          return r && inTransitions(r);
        }),
      })),
  };
}

/** A chart of the costs page: the line chart of (a) or the bar chart of (b). */
export type ChartSpec = { kind: "line"; chart: LineChart } | { kind: "bar"; chart: BarChart };

/** The charts of the costs page by file, from the recorded figures (earlier ones marked recorded) and the current ones. */
export function chartSpecs(results: Measured[]): Record<string, ChartSpec> {
  const speeds = [...new Set(results.map((r) => r.speed))];
  return {
    ...Object.fromEntries(
      speeds.map((speed) => [`docs/costs/requests-per-vm-${speedSlug(speed)}.svg`, { kind: "line", chart: requestsChart(results, speed) }]),
    ),
    "docs/costs/wall-time-in-transitions.svg": { kind: "bar", chart: transitionsChart(results) },
  };
}

/** Each chart's SVG text by file. */
export const renderCharts = (results: Measured[]): Record<string, string> =>
  Object.fromEntries(
    Object.entries(chartSpecs(results)).map(([file, spec]) => [
      file,
      spec.kind === "line" ? renderLineChart(spec.chart) : renderBarChart(spec.chart),
    ]),
  );

/** A speed as a file name's part: "lab", "×10" → "x10". */
const speedSlug = (speed: string) => speed.replace("×", "x");
