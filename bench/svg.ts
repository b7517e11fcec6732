// A small SVG chart renderer (no dependency): pure functions from a chart's data to
// the SVG text, for the costs page (docs/costs/*.svg, bench/charts.ts). Each series is
// one `<g class="series" data-series="<name>" data-points="<n>">` holding one
// `class="point"` element per value, so a test can find every plotted value.

export interface Series {
  name: string;
  /** #rrggbb: points and bars are filled with it, so a pixel check can find them. */
  color: string;
  /** Drawn dashed: the floor, or a recorded (earlier) run. */
  dashed?: boolean;
  /** One value per category (x of a line chart, group of a bar chart); undefined: not measured. */
  values: (number | undefined)[];
}

export interface Panel {
  title: string;
  series: Series[];
}

export interface LineChart {
  title: string;
  /** The categories along x, in order (equally spaced). */
  categories: string[];
  xLabel: string;
  yLabel: string;
  /** A log₁₀ y axis (values must be > 0). */
  logY: boolean;
  panels: Panel[];
}

export interface BarChart {
  title: string;
  /** One group of bars per category. */
  categories: string[];
  yLabel: string;
  series: Series[];
}

const PANEL = { width: 300, height: 230, left: 52, right: 12, top: 30, bottom: 44 };
const TITLE_HEIGHT = 34;
const LEGEND_ROW = 20;
const LEGEND_COLUMN = 330;
/** Panels per row of a line chart. */
const COLUMNS = 3;
const FONT = 'font-family="Helvetica, Arial, sans-serif"';

/** About the width of the bold 15 px title: a chart is at least that wide. */
const titleWidth = (title: string) => Math.ceil(title.length * 8.6) + 32;

/** Text as XML character data or an attribute value. */
export const escapeXml = (text: string): string =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** A coordinate, short and stable (the committed SVGs are compared as text). */
const n = (x: number): string => String(Math.round(x * 10) / 10);

/** A tick's label: 1000 → "1000", 0.1 → "0.1", 2.5 → "2.5". */
const tickLabel = (x: number): string => String(Number(x.toPrecision(3)));

/** Ticks of a linear axis from 0 to at least `max`: 4 to 7 round steps (1, 2 or 5 × 10ⁿ). */
export function linearTicks(max: number): number[] {
  const top = max > 0 ? max : 1;
  const raw = top / 5;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => top / s <= 6) ?? 10 * magnitude;
  const count = Math.ceil(top / step - 1e-9);
  return Array.from({ length: count + 1 }, (_, i) => Number((i * step).toPrecision(12)));
}

/** Ticks of a log axis: the powers of ten around [min, max]. */
export function logTicks(min: number, max: number): number[] {
  const lo = Math.floor(Math.log10(min));
  const hi = Math.max(Math.ceil(Math.log10(max)), lo + 1);
  return Array.from({ length: hi - lo + 1 }, (_, i) => Number((10 ** (lo + i)).toPrecision(12)));
}

function legend(series: Series[], top: number, width: number): { svg: string[]; height: number } {
  const perRow = Math.max(1, Math.floor(width / LEGEND_COLUMN));
  const svg = series.map((s, i) => {
    const x = 16 + (i % perRow) * LEGEND_COLUMN;
    const y = top + Math.floor(i / perRow) * LEGEND_ROW;
    const dash = s.dashed ? ' stroke-dasharray="5 3"' : "";
    return [
      `<line x1="${x}" y1="${y}" x2="${x + 26}" y2="${y}" stroke="${s.color}" stroke-width="2"${dash}/>`,
      `<rect x="${x + 9}" y="${y - 4}" width="8" height="8" fill="${s.color}"/>`,
      `<text x="${x + 34}" y="${y + 4}" font-size="12">${escapeXml(s.name)}</text>`,
    ].join("");
  });
  return { svg, height: Math.ceil(series.length / perRow) * LEGEND_ROW + 10 };
}

function document(width: number, height: number, title: string, body: string[]): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ${FONT}>`,
    `<title>${escapeXml(title)}</title>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="16" y="22" font-size="15" font-weight="bold">${escapeXml(title)}</text>`,
    ...body,
    "</svg>",
    "",
  ].join("\n");
}

/** The axes, grid and labels of one plot area; returns the y scale. */
function axes(
  width: number,
  x0: number,
  y0: number,
  categories: string[],
  ticks: number[],
  scale: (v: number) => number,
  yLabel: string,
  xLabel: string,
): string[] {
  const { height, left, right, top, bottom } = PANEL;
  const plotRight = x0 + width - right;
  const plotBottom = y0 + height - bottom;
  const step = (plotRight - (x0 + left)) / categories.length;
  return [
    ...ticks.map((t) => {
      const y = scale(t);
      return `<line x1="${n(x0 + left)}" y1="${n(y)}" x2="${n(plotRight)}" y2="${n(y)}" stroke="#e3e3e3"/><text x="${n(x0 + left - 5)}" y="${n(y + 4)}" font-size="10" text-anchor="end">${tickLabel(t)}</text>`;
    }),
    `<line x1="${n(x0 + left)}" y1="${n(y0 + top)}" x2="${n(x0 + left)}" y2="${n(plotBottom)}" stroke="#555555"/>`,
    `<line x1="${n(x0 + left)}" y1="${n(plotBottom)}" x2="${n(plotRight)}" y2="${n(plotBottom)}" stroke="#555555"/>`,
    ...categories.map(
      (c, i) =>
        `<text x="${n(x0 + left + step * (i + 0.5))}" y="${n(plotBottom + 14)}" font-size="10" text-anchor="middle">${escapeXml(c)}</text>`,
    ),
    `<text x="${n(x0 + left + (plotRight - x0 - left) / 2)}" y="${n(plotBottom + 32)}" font-size="11" text-anchor="middle">${escapeXml(xLabel)}</text>`,
    `<text transform="translate(${n(x0 + 12)} ${n(y0 + top + (plotBottom - y0 - top) / 2)}) rotate(-90)" font-size="11" text-anchor="middle">${escapeXml(yLabel)}</text>`,
  ];
}

/** Panels side by side sharing a legend: each series a polyline through its points, a dot on each. */
export function renderLineChart(chart: LineChart): string {
  const { width, height, left, right, top, bottom } = PANEL;
  const values = chart.panels.flatMap((p) => p.series.flatMap((s) => s.values.filter((v): v is number => v !== undefined)));
  if (chart.logY && values.some((v) => v <= 0)) throw new Error(`${chart.title}: a log axis cannot plot ${Math.min(...values)}`);
  const ticks = chart.logY ? logTicks(Math.min(...values), Math.max(...values)) : linearTicks(Math.max(...values));
  const [lo, hi] = [ticks[0], ticks.at(-1)!];
  const body: string[] = [];
  chart.panels.forEach((panel, p) => {
    const x0 = (p % COLUMNS) * width;
    const y0 = TITLE_HEIGHT + Math.floor(p / COLUMNS) * height;
    const plotTop = y0 + top;
    const plotBottom = y0 + height - bottom;
    const fraction = (v: number) => (chart.logY ? Math.log10(v / lo) / Math.log10(hi / lo) : (v - lo) / (hi - lo));
    const scale = (v: number) => plotBottom - fraction(v) * (plotBottom - plotTop);
    const step = (width - right - left) / chart.categories.length;
    const xAt = (i: number) => x0 + left + step * (i + 0.5);
    body.push(
      `<g class="panel" data-panel="${escapeXml(panel.title)}">`,
      `<text x="${n(x0 + left)}" y="${n(y0 + 18)}" font-size="13" font-weight="bold">${escapeXml(panel.title)}</text>`,
      ...axes(width, x0, y0, chart.categories, ticks, scale, chart.yLabel, chart.xLabel),
    );
    for (const s of panel.series) {
      const points = s.values.flatMap((v, i) => (v === undefined ? [] : [{ x: xAt(i), y: scale(v), v }]));
      if (points.length === 0) continue;
      const dash = s.dashed ? ' stroke-dasharray="5 3"' : "";
      body.push(
        `<g class="series" data-series="${escapeXml(s.name)}" data-points="${points.length}" data-color="${s.color}">`,
        `<polyline points="${points.map((pt) => `${n(pt.x)},${n(pt.y)}`).join(" ")}" fill="none" stroke="${s.color}" stroke-width="2"${dash}/>`,
        ...points.map(
          (pt) =>
            `<circle class="point" cx="${n(pt.x)}" cy="${n(pt.y)}" r="4" fill="${s.color}"><title>${escapeXml(`${s.name}: ${tickLabel(pt.v)}`)}</title></circle>`,
        ),
        "</g>",
      );
    }
    body.push("</g>");
  });
  const totalWidth = Math.min(chart.panels.length, COLUMNS) * width;
  const panelsHeight = Math.ceil(chart.panels.length / COLUMNS) * height;
  const named = new Map(
    chart.panels.flatMap((p) => p.series.filter((s) => s.values.some((v) => v !== undefined)).map((s) => [s.name, s] as const)),
  );
  const key = legend([...named.values()], TITLE_HEIGHT + panelsHeight + 8, totalWidth);
  return document(totalWidth, TITLE_HEIGHT + panelsHeight + key.height + 8, chart.title, [...body, ...key.svg]);
}

/** Groups of bars, one bar per series with a value, its value written above it. */
export function renderBarChart(chart: BarChart): string {
  const width = Math.max(PANEL.width, titleWidth(chart.title), 70 + chart.categories.length * (chart.series.length * 18 + 30));
  const { height, left, right, top, bottom } = PANEL;
  const y0 = TITLE_HEIGHT;
  const plotTop = y0 + top;
  const plotBottom = y0 + height - bottom;
  const values = chart.series.flatMap((s) => s.values.filter((v): v is number => v !== undefined));
  const ticks = linearTicks(Math.max(...values));
  const hi = ticks.at(-1)!;
  const scale = (v: number) => plotBottom - (v / hi) * (plotBottom - plotTop);
  const step = (width - right - left) / chart.categories.length;
  const barWidth = Math.min(18, (step - 12) / chart.series.length);
  const body = [...axes(width, 0, y0, chart.categories, ticks, scale, chart.yLabel, "")];
  for (const s of chart.series) {
    const bars = s.values.flatMap((v, i) => (v === undefined ? [] : [{ i, v }]));
    if (bars.length === 0) continue;
    const dash = s.dashed ? ' stroke-dasharray="4 2"' : "";
    body.push(`<g class="series" data-series="${escapeXml(s.name)}" data-points="${bars.length}" data-color="${s.color}">`);
    for (const { i, v } of bars) {
      const present = chart.series.filter((other) => other.values[i] !== undefined);
      const slot = present.indexOf(s);
      const x = left + step * i + (step - barWidth * present.length) / 2 + slot * barWidth;
      const y = scale(v);
      body.push(
        `<rect class="point" x="${n(x + 1)}" y="${n(y)}" width="${n(barWidth - 2)}" height="${n(plotBottom - y)}" fill="${s.color}" stroke="#333333"${dash}><title>${escapeXml(`${s.name}: ${tickLabel(v)}`)}</title></rect>`,
        `<text x="${n(x + barWidth / 2)}" y="${n(y - 3)}" font-size="9" text-anchor="middle">${tickLabel(Number(v.toFixed(1)))}</text>`,
      );
    }
    body.push("</g>");
  }
  const key = legend(
    chart.series.filter((s) => s.values.some((v) => v !== undefined)),
    TITLE_HEIGHT + height + 8,
    width,
  );
  return document(width, TITLE_HEIGHT + height + key.height + 8, chart.title, [...body, ...key.svg]);
}
