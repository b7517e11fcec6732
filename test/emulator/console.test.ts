/**
 * The web console in a real browser: Debian's Chromium, driven by playwright-core, opens `/ui` of an emulator
 * holding a lab provisioned through the provider (a vnet, two VMs with drives and NICs, one running) plus a webhook
 * and a task sending to it when a VM powers off, and the page shows what the API holds; faults and chaos rules are armed and
 * cleared from the page through the admin API; a VM powered off through the API changes on the page; it fits a
 * phone's width; a failed delivery says why; opened at a URL with credentials it works as well. Screenshots are kept in .artifacts/console/ (gitignored): console-desktop.png (taken with a
 * fault armed and a VM running) and console-phone.png.
 */
import { mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { type HeadlessChromium, launchHeadlessChromium } from "../headlessChromium";
import { checkedCreate, providers, startLab, type Lab } from "../provider/harness";

const ARTIFACTS = join(__dirname, "..", "..", ".artifacts", "console");

let lab: Lab;
let chromium: HeadlessChromium;
let page: Page;
/** A webhook receiver that refuses every delivery with 503 and a reason. */
let refusing: Server;
let refusedHook: string;
const vms: Record<string, { id: string; machineKey: string }> = {};

beforeAll(async () => {
  lab = await startLab();
  const net = await checkedCreate(providers.Vnet(), { name: "console-net", network: "10.60.0.0/24" });
  for (const name of ["console-web", "console-db"]) {
    const vm = await checkedCreate(providers.VirtualMachine(), { name, cpuCores: 2, ram: 2048 });
    vms[name] = { id: vm.id, machineKey: vm.outs.machineKey };
    await checkedCreate(providers.Drive(), { machine: vm.outs.machineKey, name: `${name}-disk`, disksize: 10 * 1024 ** 3 });
    await checkedCreate(providers.Nic(), { machine: vm.outs.machineKey, name: `${name}-nic`, vnet: net.id });
  }
  await checkedCreate(providers.VmPower(), { vm: vms["console-web"].id, state: "running" });
  // Nothing listens on the discard port: each delivery ends in error at once, and shows as such.
  const hook = await lab.api("POST", "webhook_urls", { name: "console-hook", url: "http://127.0.0.1:9/hook", retries: 0, timeout: 3 });
  const task = await lab.api("POST", "tasks", { name: "tell-on-poweroff", owner: `webhook_urls/${hook.$key}`, action: "send" });
  await lab.api("POST", "task_events", { task: Number(task.$key), table: "vms", event: "poweroff" });
  refusing = createServer((_, res) => res.writeHead(503, { "content-type": "text/plain" }).end("receiver in maintenance"));
  await new Promise<void>((resolve) => refusing.listen(0, "127.0.0.1", resolve));
  const { port } = refusing.address() as AddressInfo;
  ({ $key: refusedHook } = await lab.api("POST", "webhook_urls", {
    name: "console-refused",
    url: `http://127.0.0.1:${port}/hook`,
    retries: 0,
    timeout: 3,
  }));
  chromium = await launchHeadlessChromium({
    ignoreHTTPSErrors: true,
    httpCredentials: { username: "admin", password: lab.emu.adminPassword },
    viewport: { width: 1280, height: 900 },
  });
  page = chromium.context.pages()[0] ?? (await chromium.context.newPage());
  await page.goto(`${lab.emu.url}/ui`);
}, 180_000);

afterAll(async () => {
  await chromium?.close();
  await lab?.close();
  refusing?.close();
});

const vmRow = (name: string) => page.locator(`[data-vm="${name}"]`);
const text = (selector: string) => page.locator(selector).innerText();

describe("the console shows the lab the provider made", () => {
  test("each VM with its power state, status and node", async () => {
    await vmRow("console-db").waitFor();
    await expectSoon(() => vmRow("console-web").locator(".power").innerText(), "on");
    expect(await vmRow("console-web").locator(".status").innerText()).toBe("running");
    expect(await vmRow("console-web").locator(".node").innerText()).toMatch(/^node[12]$/);
    expect(await vmRow("console-db").locator(".power").innerText()).toBe("off");
    expect(await vmRow("console-db").locator(".status").innerText()).toBe("stopped");
  });

  test("each VM's drives and NICs, with the vnet they are on", async () => {
    const hardware = await vmRow("console-web").locator("td.hw").innerText();
    expect(hardware).toContain("drive console-web-disk");
    expect(hardware).toContain("NIC console-web-nic on console-net");
    expect(await text('[data-list="vnets"]')).toContain("console-net");
  });

  test("users and API keys by name, never a secret", async () => {
    expect(await text('[data-list="users"]')).toContain("admin");
    expect(await text('[data-list="apiKeys"]')).toContain("emulator-admin");
    const html = await page.content();
    expect(html).not.toContain(lab.emu.apiKey);
    expect(html).not.toContain(lab.emu.adminPassword);
  });

  test("groups and the grants to users and groups, like any table", async () => {
    const group = await lab.api("POST", "groups", { name: "console-class" });
    const { identity } = await lab.api("GET", `groups/${group.$key}?fields=identity`);
    await lab.api("POST", "permissions", { identity, table: "vnets", row: 0, read: true });
    await expectSoon(() => text('[data-list="groups"]'), /console-class/);
    await expectSoon(() => text('[data-list="grants"]'), new RegExp(`groups/${group.$key}\\s+vnets\\s+all\\s+list, read`));
  });

  test("the request log with the count of each caller and the budget left in its hour", async () => {
    await lab.api("GET", "vms?fields=name");
    await expectSoon(() => text('[data-list="requests"]'), /GET \/api\/v4\/vms/);
    const callers = await text('[data-list="callers"]');
    expect(callers).toMatch(/emulator-admin\s+\d+\s+\d+ of 1000 \(resets in \d+ s\)/);
  });
});

describe("faults are armed and cleared from the page through the admin API", () => {
  test("an armed 503 on vms is listed, hits API calls, and Clear all removes it", async () => {
    await page.selectOption('#arm select[name="method"]', "GET");
    await page.fill('#arm input[name="table"]', "vms");
    await page.fill('#arm input[name="status"]', "503");
    await page.click('#arm button[type="submit"]');
    await expectSoon(() => text("#fault-message"), /^armed fault #\d+$/);
    await expectSoon(() => text('[data-list="faults"]'), /GET\s+vms\s+answers 503/);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, "console-desktop.png"), fullPage: true });
    await expect(lab.api("GET", "vms?fields=name")).rejects.toMatchObject({ status: 503 });
    expect(await lab.hook("GET", "/_emulator/faults")).toHaveLength(1);
    await page.click("#clear");
    await expectSoon(() => text("#fault-message"), "cleared");
    expect(await lab.hook("GET", "/_emulator/faults")).toEqual([]);
    expect(await lab.api("GET", "vms?fields=name")).toEqual(expect.arrayContaining([{ name: "console-web" }]));
  });
});

describe("chaos rules are armed and cleared from the page through the admin API", () => {
  test("a 502 rule on GET vms is listed with its hits, answers API calls, and Clear all removes it", async () => {
    await page.selectOption('#arm-chaos select[name="method"]', "GET");
    await page.fill('#arm-chaos input[name="table"]', "vms");
    await page.fill('#arm-chaos input[name="status"]', "502");
    await page.fill('#arm-chaos input[name="latencyMs"]', "20");
    await page.click('#arm-chaos button[type="submit"]');
    await expectSoon(() => text("#chaos-message"), /^armed chaos #\d+$/);
    await expectSoon(() => text('[data-list="chaos"]'), /GET\s+vms\s+answers 502, adds 20 ms/);
    await expect(lab.api("GET", "vms?fields=name")).rejects.toMatchObject({ status: 502 });
    await expectSoon(() => text('[data-list="chaos"]'), /[1-9]\d* \(spared 0\)/);
    expect((await lab.hook("GET", "/_emulator/chaos")).rules).toHaveLength(1);
    await page.click("#clear-chaos");
    await expectSoon(() => text("#chaos-message"), "cleared");
    expect((await lab.hook("GET", "/_emulator/chaos")).rules).toEqual([]);
    expect(await lab.api("GET", "vms?fields=name")).toEqual(expect.arrayContaining([{ name: "console-web" }]));
  });
});

describe("the console follows changes live", () => {
  test("a VM powered off through the API shows off on the page without a reload", async () => {
    await lab.api("POST", "vm_actions", { vm: vms["console-web"].id, action: "kill" });
    await expectSoon(() => vmRow("console-web").locator(".power").innerText(), "off");
    await expectSoon(() => vmRow("console-web").locator(".status").innerText(), "stopped");
    expect(await vmRow("console-web").locator(".node").innerText()).toBe("—");
  });

  test("the webhook, the task with its trigger, and the delivery the power-off caused", async () => {
    expect(await text('[data-list="webhooks"]')).toContain("console-hook");
    expect(await text('[data-list="tasks"]')).toContain("tell-on-poweroff");
    expect(await text('[data-list="triggers"]')).toMatch(/tell-on-poweroff\s+event vms\.poweroff/);
    await expectSoon(() => text('[data-list="deliveries"]'), /console-hook\s+tell-on-poweroff\s+error/);
  });

  test("a failed delivery's outcome says why: the connection error, or the receiver's status code and answer", async () => {
    await expectSoon(() => text('[data-list="deliveries"]'), /console-hook\s+tell-on-poweroff\s+error\s+request failed: ECONNREFUSED/);
    await lab.api("POST", "webhook_url_actions", { webhook_url: Number(refusedHook), action: "send" });
    await expectSoon(() => text('[data-list="deliveries"]'), /console-refused\s+test send\s+error\s+HTTP 503: receiver in maintenance/);
    expect(await text('[data-list="deliveries"] tr:first-child')).toMatch(/Status\s+Outcome\s+Tries/);
  });
});

describe("the console works when opened at a URL with credentials", () => {
  test("https://admin:<password>@host/ui fills its lists and stays live (fetches go to the origin, without the credentials)", async () => {
    const bare = await launchHeadlessChromium({ ignoreHTTPSErrors: true });
    try {
      const tab = bare.context.pages()[0] ?? (await bare.context.newPage());
      const at = new URL(`${lab.emu.url}/ui`);
      at.username = "admin";
      at.password = lab.emu.adminPassword;
      await tab.goto(at.href);
      await tab.locator('[data-vm="console-db"]').waitFor({ timeout: 10_000 });
      await expectSoon(() => tab.locator("#live").innerText(), /^live · updated /);
    } finally {
      await bare.close();
    }
  }, 30_000);
});

describe("the console fits a phone's width", () => {
  test("at 390 px nothing is wider than the screen; the screenshot is kept", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, screen: window.innerWidth }));
    expect(widths.page).toBeLessThanOrEqual(widths.screen);
    await page.screenshot({ path: join(ARTIFACTS, "console-phone.png"), fullPage: true });
  });
});

/** Waits for the page's polling to show the expected text (it refreshes every second). */
async function expectSoon(read: () => Promise<string>, want: string | RegExp, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let seen = "";
  while (Date.now() < deadline) {
    seen = await read();
    if (typeof want === "string" ? seen === want : want.test(seen)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the page shows ${JSON.stringify(seen)}, not ${String(want)}, after ${timeoutMs} ms`);
}
