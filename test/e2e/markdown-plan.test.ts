// `vplatform env preview --markdown`, the pull-request comment, under the real
// engine; its Mermaid diagram rendered by the `mermaid` library in headless
// Chromium (Debian's chromium, driven by playwright-core), as GitHub renders it.
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { findRepoRoot } from "../../env/local-stack";
import { type HeadlessChromium, launchHeadlessChromium } from "../headlessChromium";
import { startPostgres, type RunningPostgres } from "./postgres";
import { createTeamRepo, type TeamRepo } from "./teamRepo";

const ENVIRONMENT = `vnets:
  - name: review-net
    network: 10.63.0.0/24
vms:
  - name: review-web
    cpuCores: 2
    ram: 2048
    powerState: running
    drives:
      - { name: os, media: disk, disksize: 10GiB }
    nics:
      - vnet: review-net
  - name: review-db
    cpuCores: 2
    ram: 4096
    drives:
      - { name: data, media: disk, disksize: 20GiB }
    nics:
      - vnet: review-net
`;

let postgres: RunningPostgres;
let emulator: RunningEmulator;
let team: TeamRepo;
let browser: HeadlessChromium;

beforeAll(async () => {
  postgres = await startPostgres();
  emulator = await startEmulator({ port: 0, timeScale: 0.01, quiet: true });
  team = createTeamRepo(emulator, postgres.url);
  browser = await launchHeadlessChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await emulator?.close();
  await postgres?.stop();
  team?.remove();
});

/** Renders Mermaid source with the mermaid library in the browser: the SVG's text, or the library's error. */
async function renderMermaid(source: string): Promise<{ svgText?: string; error?: string }> {
  const page = await browser.context.newPage();
  try {
    await page.setContent("<!doctype html><html><body></body></html>");
    await page.addScriptTag({ path: path.join(findRepoRoot(), "node_modules", "mermaid", "dist", "mermaid.min.js") });
    return await page.evaluate(async (src) => {
      const mermaid = (
        globalThis as unknown as { mermaid: { initialize(o: object): void; render(id: string, s: string): Promise<{ svg: string }> } }
      ).mermaid;
      mermaid.initialize({ startOnLoad: false, securityLevel: "strict" });
      try {
        const { svg } = await mermaid.render("plan", src);
        const holder = document.createElement("div");
        holder.innerHTML = svg;
        document.body.appendChild(holder);
        return { svgText: holder.textContent ?? "" };
      } catch (err) {
        return { error: String(err) };
      }
    }, source);
  } finally {
    await page.close();
  }
}

describe("vplatform env preview --markdown writes a pull-request comment", () => {
  test("counts, a table of changes, and a Mermaid diagram that renders and shows every declared VM", async () => {
    team.writeEnvironment("review", ENVIRONMENT);
    const preview = await team.vplatform("preview", "environments/review.yaml", "--stack", "review", "--markdown");
    expect(preview.code).toBe(0);
    const md = preview.stdout;
    expect(md).toMatch(
      /^### vplatform Plan: stack `review`, `environments\/review\.yaml`\n\n\*\*8 to create, 0 to update, 0 to replace, 0 to delete/,
    );
    expect(md).toContain("| ➕ create | VirtualMachine `review-web` | cpuCores |  | `2` |");
    const diagram = /```mermaid\n([\s\S]*?)\n```/.exec(md)?.[1];
    expect(diagram).toBeDefined();

    const rendered = await renderMermaid(diagram!);
    expect(rendered.error).toBeUndefined();
    for (const vm of ["review-web", "review-db"]) expect(rendered.svgText).toContain(`VM ${vm}`);
    expect(rendered.svgText).toContain("vnet review-net");
    // Nothing was sent: a preview.
    expect(await emulatorVms()).toEqual([]);
  }, 300_000);

  test("the renderer's check is real: a broken diagram is reported", async () => {
    expect((await renderMermaid('flowchart LR\n  a["unclosed\n')).error).toMatch(/Parse error|error/i);
  }, 60_000);
});

async function emulatorVms(): Promise<unknown[]> {
  const { default: got } = await import("got");
  return got(`${emulator.url}/api/v4/vms?fields=name&filter=is_snapshot%20eq%20false`, {
    headers: { authorization: `Bearer ${emulator.apiKey}` },
    https: { certificateAuthority: emulator.caCert },
  }).json();
}
