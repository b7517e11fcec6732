import { type BarChart, escapeXml, type LineChart, linearTicks, logTicks, renderBarChart, renderLineChart } from "./svg";

/** Each series group's name and its plotted points' coordinates, read back from the SVG text. */
function plotted(svg: string, point: "circle" | "rect") {
  return [...svg.matchAll(/<g class="series" data-series="([^"]*)" data-points="(\d+)"[^>]*>([\s\S]*?)<\/g>/g)].map(
    ([, name, count, body]) => ({
      name,
      count: Number(count),
      points: [...body.matchAll(new RegExp(`<${point} class="point" ([^>]*)>`, "g"))].map(([, attrs]) =>
        Object.fromEntries([...attrs.matchAll(/([a-z]+)="([-\d.]+)"/g)].map(([, k, v]) => [k, Number(v)])),
      ),
    }),
  );
}

const balanced = (svg: string, tag: string) =>
  (svg.match(new RegExp(`<${tag}[ >]`, "g")) ?? []).length === (svg.match(new RegExp(`</${tag}>`, "g")) ?? []).length;

describe("text in the SVG is escaped", () => {
  test("&, <, > and quotes", () => {
    expect(escapeXml(`a & <b> "c"`)).toBe("a &amp; &lt;b&gt; &quot;c&quot;");
  });
  test("a series named with markup stays text", () => {
    const svg = renderBarChart({
      title: "<t>",
      categories: ["a"],
      yLabel: "y",
      series: [{ name: 'x"<y>', color: "#123456", values: [1] }],
    });
    expect(svg).not.toContain("<t>");
    expect(svg).toContain('data-series="x&quot;&lt;y&gt;"');
  });
});

describe("axis ticks", () => {
  test.each([0.4, 1, 3, 7, 9.5, 10, 17.4, 45, 99, 100, 101, 1234, 9999])(
    "a linear axis up to %d: from 0, past it, in 1, 2 or 5 × 10ⁿ steps, 3 to 7 ticks",
    (max) => {
      const ticks = linearTicks(max);
      expect(ticks[0]).toBe(0);
      expect(ticks.at(-1)).toBeGreaterThanOrEqual(max);
      const step = ticks[1];
      expect([1, 2, 5]).toContain(Number((step / 10 ** Math.floor(Math.log10(step))).toPrecision(6)));
      expect(ticks.at(-1)! - step).toBeLessThan(max);
      expect(ticks.length).toBeGreaterThanOrEqual(3);
      expect(ticks.length).toBeLessThanOrEqual(7);
    },
  );
  test("a log axis: the powers of ten around the values, at least two", () => {
    expect(logTicks(0.004, 93)).toEqual([0.001, 0.01, 0.1, 1, 10, 100]);
    expect(logTicks(2, 3)).toEqual([1, 10]);
    expect(logTicks(10, 10)).toEqual([10, 100]);
  });
});

const line = (logY: boolean, values: (number | undefined)[][]): LineChart => ({
  title: "chart",
  categories: ["10", "50", "200"],
  xLabel: "VMs",
  yLabel: "requests",
  logY,
  panels: [
    { title: "up", series: values.map((v, i) => ({ name: `s${i}`, color: `#00000${i}`, values: v })) },
    { title: "grow", series: [{ name: "s0", color: "#000000", dashed: true, values: [1, 1, 1] }] },
  ],
});

describe("a line chart", () => {
  test("draws one group per series and panel, with a point per measured value (unmeasured ones skipped)", () => {
    const series = plotted(
      renderLineChart(
        line(false, [
          [1, 2, 3],
          [4, undefined, 6],
        ]),
      ),
      "circle",
    );
    expect(series.map((s) => [s.name, s.count, s.points.length])).toEqual([
      ["s0", 3, 3],
      ["s1", 2, 2],
      ["s0", 3, 3],
    ]);
  });
  test("a series with no measured value is not drawn, nor in the legend", () => {
    const svg = renderLineChart(
      line(false, [
        [1, 2, 3],
        [undefined, undefined, undefined],
      ]),
    );
    expect(plotted(svg, "circle").map((s) => s.name)).toEqual(["s0", "s0"]);
    expect(svg).not.toContain(">s1<");
  });
  test("a greater value is drawn higher, at the category's x", () => {
    const [s] = plotted(renderLineChart(line(false, [[1, 5, 3]])), "circle");
    const [a, b, c] = s.points;
    expect(b.cy).toBeLessThan(c.cy);
    expect(c.cy).toBeLessThan(a.cy);
    expect(a.cx).toBeLessThan(b.cx);
    expect(c.cx - b.cx).toBeCloseTo(b.cx - a.cx, 0);
  });
  test("on a log axis equal ratios are equal distances", () => {
    const [s] = plotted(renderLineChart(line(true, [[0.1, 1, 10]])), "circle");
    const [a, b, c] = s.points;
    expect(a.cy - b.cy).toBeCloseTo(b.cy - c.cy, 0);
  });
  test("a log axis refuses a value of 0, naming the chart", () => {
    expect(() => renderLineChart(line(true, [[0, 1, 2]]))).toThrow(/chart: a log axis cannot plot 0/);
  });
  test("a dashed series is drawn dashed; the document is well formed", () => {
    const svg = renderLineChart(line(false, [[1, 2, 3]]));
    expect(svg).toMatch(/<polyline [^>]*stroke="#000000" stroke-width="2" stroke-dasharray/);
    for (const tag of ["svg", "g", "text", "title", "circle"]) expect(balanced(svg, tag)).toBe(true);
  });
});

describe("a bar chart", () => {
  const chart: BarChart = {
    title: "bars",
    categories: ["up, 50 VMs", "destroy, 50 VMs"],
    yLabel: "power-ons",
    series: [
      { name: "before", color: "#111111", dashed: true, values: [45, 9.2] },
      { name: "after", color: "#222222", values: [7.9, undefined] },
    ],
  };
  test("draws a bar per measured value, heights in proportion to the values, from one baseline", () => {
    const [before, after] = plotted(renderBarChart(chart), "rect");
    expect([before.count, after.count]).toEqual([2, 1]);
    expect(before.points[0].height / after.points[0].height).toBeCloseTo(45 / 7.9, 1);
    expect(before.points[1].height / before.points[0].height).toBeCloseTo(9.2 / 45, 1);
    const bottoms = [...before.points, ...after.points].map((p) => p.y + p.height);
    expect(new Set(bottoms.map(Math.round)).size).toBe(1);
  });
  test("each group's bars sit side by side within the group, in series order", () => {
    const [before, after] = plotted(renderBarChart(chart), "rect");
    expect(before.points[0].x + before.points[0].width).toBeLessThanOrEqual(after.points[0].x);
    expect(after.points[0].x).toBeLessThan(before.points[1].x);
  });
  test("writes each bar's value above it", () => {
    const svg = renderBarChart(chart);
    for (const v of ["45", "9.2", "7.9"]) expect(svg).toContain(`>${v}</text>`);
  });
});
