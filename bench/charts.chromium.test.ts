// The costs page's charts seen as a reader sees them: each image docs/costs.md embeds, loaded by
// headless Chromium as an <img> of a page served from docs/, must render, hold every series of the
// figures with the data's number of points, and show each series' colour where its points are.
import * as fs from "node:fs";
import * as path from "node:path";
import { type HeadlessChromium, launchHeadlessChromium } from "../test/headlessChromium";
import { type ChartSpec, chartSpecs } from "./charts";
import { committedResults } from "./results";

const root = path.resolve(__dirname, "..");
const docs = path.join(root, "docs");
/** A made-up origin the page is served from (routed to docs/, nothing leaves the machine): images from it can be read back. */
const ORIGIN = "http://docs.test";

/** The images docs/costs.md embeds, relative to docs/. */
const embedded = [...fs.readFileSync(path.join(docs, "costs.md"), "utf8").matchAll(/!\[[^\]]*\]\(([^)\s]+\.svg)\)/g)].map((m) =>
  path.posix.join(path.posix.dirname("costs.md"), m[1]),
);
const specs = chartSpecs(committedResults(root));

/** Each series the chart plots (those with a measured value) and its number of points. */
function expectedSeries(spec: ChartSpec): { name: string; points: number }[] {
  const series = spec.kind === "line" ? spec.chart.panels.flatMap((p) => p.series) : spec.chart.series;
  return series.map((s) => ({ name: s.name, points: s.values.filter((v) => v !== undefined).length })).filter((s) => s.points > 0);
}

interface Seen {
  width: number;
  naturalWidth: number;
  /** Pixels not white: the image is not blank. */
  inked: number;
  pixels: number;
  /** Per series: its points declared and drawn, those not covered by a later series' point, and those of them in its colour. */
  series: { name: string; declared: number; points: number; color: string; onTop: number; shown: number }[];
}

let chromium: HeadlessChromium;

beforeAll(async () => {
  chromium = await launchHeadlessChromium({ viewport: { width: 1000, height: 800 }, deviceScaleFactor: 1 });
  await chromium.context.route(`${ORIGIN}/**`, async (route) => {
    const file = path.join(docs, decodeURI(new URL(route.request().url()).pathname));
    if (!file.startsWith(docs) || !fs.existsSync(file)) return route.fulfill({ status: 404 });
    const type = file.endsWith(".svg") ? "image/svg+xml" : "text/html";
    return route.fulfill({ status: 200, contentType: type, body: fs.readFileSync(file) });
  });
}, 60_000);
afterAll(async () => {
  await chromium?.close();
});

/** Loads the chart as an image, draws it on a canvas and reads back its pixels at each plotted point. */
async function view(chart: string): Promise<Seen> {
  const page = await chromium.context.newPage();
  try {
    await page.route(`${ORIGIN}/costs.html`, (route) =>
      route.fulfill({ contentType: "text/html", body: `<!doctype html><body><img id="chart" src="${chart}"></body>` }),
    );
    await page.goto(`${ORIGIN}/costs.html`);
    await page.waitForFunction(() => (document.getElementById("chart") as HTMLImageElement).complete);
    return await page.evaluate(async (src) => {
      const img = document.getElementById("chart") as HTMLImageElement;
      await img.decode();
      const svg = new DOMParser().parseFromString(await (await fetch(src)).text(), "image/svg+xml");
      const width = Number(svg.documentElement.getAttribute("width"));
      const canvas = document.createElement("canvas");
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const g = canvas.getContext("2d")!;
      g.drawImage(img, 0, 0);
      const { data } = g.getImageData(0, 0, canvas.width, canvas.height);
      let inked = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i] < 240 || data[i + 1] < 240 || data[i + 2] < 240) inked++;
      const rgbAt = (x: number, y: number) => {
        const i = (Math.round(y) * canvas.width + Math.round(x)) * 4;
        return [data[i], data[i + 1], data[i + 2]];
      };
      const hex = (color: string) => [1, 3, 5].map((k) => Number.parseInt(color.slice(k, k + 2), 16));
      const near = (a: number[], b: number[]) => a.every((v, k) => Math.abs(v - b[k]) <= 8);
      const centre = (el: Element) => {
        const n = (a: string) => Number(el.getAttribute(a));
        return el.tagName === "circle" ? [n("cx"), n("cy")] : [n("x") + n("width") / 2, n("y") + n("height") / 2];
      };
      const groups = [...svg.querySelectorAll("g.series")];
      // A point drawn later at the same place covers an earlier one: each point is looked for where it is on top.
      const all = groups.flatMap((group, order) => [...group.querySelectorAll(".point")].map((el) => ({ order, at: centre(el) })));
      const onTop = (order: number, [x, y]: number[]) => !all.some((p) => p.order > order && Math.hypot(p.at[0] - x, p.at[1] - y) < 5);
      return {
        width,
        naturalWidth: img.naturalWidth,
        inked,
        pixels: data.length / 4,
        series: groups.map((group, order) => {
          const color = group.getAttribute("data-color") ?? "";
          const points = [...group.querySelectorAll(".point")].map(centre).filter((at) => onTop(order, at));
          return {
            name: group.getAttribute("data-series") ?? "",
            declared: Number(group.getAttribute("data-points")),
            points: group.querySelectorAll(".point").length,
            color,
            onTop: points.length,
            shown: points.filter(([x, y]) => near(rgbAt(x, y), hex(color))).length,
          };
        }),
      };
    }, chart);
  } finally {
    await page.close();
  }
}

describe("docs/costs.md's charts, viewed as images in headless Chromium", () => {
  test("the page embeds at least two charts, each drawn from the figures", () => {
    expect(embedded.length).toBeGreaterThanOrEqual(2);
    for (const chart of embedded) expect(Object.keys(specs)).toContain(`docs/${chart}`);
  });

  test.each(embedded)(
    "%s renders, with every series of the figures and the data's number of points in its colour",
    async (chart) => {
      const seen = await view(chart);
      expect(seen.naturalWidth).toBe(seen.width);
      expect(seen.inked / seen.pixels).toBeGreaterThan(0.02);
      const expected = expectedSeries(specs[`docs/${chart}`]);
      expect(seen.series.map((s) => ({ name: s.name, points: s.points }))).toEqual(expected);
      for (const s of seen.series) {
        expect(s.declared).toBe(s.points);
        // Every point not covered by a later series' point shows in its series' colour.
        expect({ name: s.name, shown: s.shown }).toEqual({ name: s.name, shown: s.onTop });
      }
      // Not vacuous: points are found in the picture (most series' points are not covered).
      expect(seen.series.filter((s) => s.shown > 0).length).toBeGreaterThan(seen.series.length / 2);
    },
    60_000,
  );
});
