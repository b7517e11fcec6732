// The policy pack of the package under the real engine, run locally (no
// Pulumi Cloud): `pulumi preview --policy-pack node_modules/vplatform/policy`.
// A compliant program declaring every resource kind of the registry passes it;
// an environment file breaking every rule at once is stopped with each rule's message.
import * as fs from "node:fs";
import * as path from "node:path";
import got from "got";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { RESOURCE_LIST } from "../../provider/resources";
import { resourceRules, stackRules, vplatformType } from "../../policy/rules";
import { startPostgres, type RunningPostgres } from "./postgres";
import { createTeamRepo, layStockProject, type Run, type TeamRepo } from "./teamRepo";

const DAY_MS = 86_400_000;
const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** A vnet of the platform that the stacks below do not declare (made outside Pulumi). */
const SHARED_VNET = "pol-shared-net";

/**
 * Every kind of resource, each as the rules want it, in a program of the team's repository (the SDK): an
 * environment file cannot declare a VmSnapshot, and declares a VmPower only for a VM's powerState.
 */
const everyKindProgram = `const vp = require("vplatform");
const net = new vp.Vnet("net", { name: "pol-net", network: "10.64.0.0/24", dhcpStart: "10.64.0.100", dhcpStop: "10.64.0.200" });
const vm = new vp.VirtualMachine("web", { name: "pol-web", cpuCores: 2, ram: 2048, powerCyclePolicy: "refuse" });
new vp.Drive("web-os", { machine: vm.machineKey, name: "os", disksize: 10 * 2 ** 30, preferredTier: 1 });
new vp.Nic("web-eth0", { machine: vm.machineKey, name: "eth0", vnet: net.id });
new vp.Device("web-gpu", { machine: vm.machineKey, resourceGroup: "0f3e6a52-6d1b-4b8e-9a51-a100a100a001" });
new vp.VmSnapshot("web-base", { vm: vm.id, name: "base" });
new vp.VmPower("web-power", { vm: vm.id, state: "running" });
const hook = new vp.Webhook("alerts", { name: "pol-alerts", url: "https://hooks.example/alert" });
const task = new vp.Task("notify", { name: "pol-notify", webhook: hook.id, message: "{}" });
new vp.EventTrigger("on-poweroff", { task: task.id, type: "vms", event: "poweroff", object: vm.id });
new vp.Schedule("nightly", { name: "pol-nightly", repeatEvery: "day", tasks: [task.id] });
const ci = new vp.User("ci", { name: "pol-ci", role: "vmoperator", password: "pol-ci-pw-4e1d" });
new vp.ApiKey("ci-key", { user: ci.id, name: "ci", expires: "${isoDate(Date.now() + 30 * DAY_MS)}", ipAllowList: [{ address: "10.64.0.0/24" }] });
new vp.Group("operators", { name: "pol-operators", description: "The operators", users: [ci.id] });
new vp.Permission("ci-web", { user: ci.id, table: "vms", row: vm.id, read: true, modify: true });
`;

/** One environment file breaking every rule of the pack. */
const violatingEnvironment = `vnets:
  - name: pol-net
    network: 10.64.0.0/24
vms:
  - name: pol-web
    ram: 131072
    powerCyclePolicy: restart
    drives:
      - { name: os, media: disk, disksize: 3TiB }
    nics:
      - vnet: ${SHARED_VNET}
webhooks:
  - name: pol-alerts
    url: http://hooks.example/alert
    allowInsecure: true
apiKeys:
  - name: pol-ci
`;

/** Each rule's message for the file above, by rule. */
const VIOLATIONS: Record<string, (string | RegExp)[]> = {
  "prod-vms-refuse-power-cycle": ["stack 'prod-eu' is production (prod*): set powerCyclePolicy: refuse on VM 'pol-web'"],
  "vm-size-limits": ["VM 'pol-web': ram 131072 MB is above the limit of 65536 MB"],
  "drive-limits": ["drive 'os': disksize 3072 GiB is above the cap of 2048 GiB"],
  "nics-on-declared-vnets": [/NIC '[\w-]+': vnet \d+ is not declared by this stack: declare it, or list its key in allowedVnetKeys/],
  "api-keys-expire-and-are-fenced": [
    "API key 'pol-ci': expires is never: set it to a date",
    "API key 'pol-ci': list the addresses that may use it in ipAllowList",
  ],
  "webhooks-over-https": [
    "webhook 'pol-alerts': url http://hooks.example/alert is not HTTPS",
    "webhook 'pol-alerts': allowInsecure is forbidden",
  ],
};
const RULES = [...resourceRules, ...stackRules].map((r) => r.name);

let postgres: RunningPostgres;
let emulator: RunningEmulator;
let team: TeamRepo;
const EVERY_KIND = "every-kind";

beforeAll(async () => {
  postgres = await startPostgres();
  emulator = await startEmulator({ port: 0, timeScale: 0.01, quiet: true });
  await got.post(`${emulator.url}/api/v4/vnets`, {
    headers: { authorization: `Bearer ${emulator.apiKey}` },
    json: { name: SHARED_VNET, network: "10.65.0.0/24" },
    https: { certificateAuthority: emulator.caCert },
  });
  team = createTeamRepo(emulator, postgres.url);
  const project = path.join(team.dir, EVERY_KIND);
  fs.mkdirSync(project);
  layStockProject(project);
  fs.writeFileSync(path.join(project, "Pulumi.yaml"), `name: ${EVERY_KIND}\nruntime: nodejs\nmain: index.js\n`);
  fs.writeFileSync(path.join(project, "index.js"), everyKindProgram);
  expect(await team.pulumi("stack", "init", "--stack", "prod-eu")).toMatchObject({ code: 0 });
  expect(await team.pulumi("stack", "init", "--stack", "prod-eu", "--cwd", EVERY_KIND)).toMatchObject({ code: 0 });
}, 60_000);
afterAll(async () => {
  await emulator?.close();
  await postgres?.stop();
  team?.remove();
});

const preview = (...extra: string[]) =>
  team.pulumi("preview", "--stack", "prod-eu", "--policy-pack", "node_modules/vplatform/policy", ...extra);

/** The vplatform kinds the engine planned, by the type tokens of its preview. */
const plannedKinds = (r: Run) =>
  [...new Set([...r.stdout.matchAll(/\S+:\S+:\w+/g)].map(([type]) => vplatformType(type)).filter((t) => t !== undefined))].sort();

describe("a compliant program passes the pack", () => {
  let compliant: Run;
  beforeAll(async () => {
    compliant = await preview("--cwd", EVERY_KIND);
  }, 300_000);

  test("the program declaring every kind of resource, each as the rules want it, passes", () => {
    expect(compliant.stderr).toBe("");
    expect(compliant.stdout).toMatch(/Policies:\s+✅ vplatform@v/); // first: a failure shows the violations
    expect(compliant.code).toBe(0);
  });

  test("it declares every kind of the registry (a new kind fails here until the program declares it)", () => {
    expect(plannedKinds(compliant)).toEqual(RESOURCE_LIST.map((r) => r.token).sort());
  });

  test("rules are configured through the pack's config: a lower RAM limit, made advisory, warns without stopping", async () => {
    const config = path.join(team.dir, "policy-config.json");
    fs.writeFileSync(config, JSON.stringify({ "vm-size-limits": { enforcementLevel: "advisory", maxRamMB: 1024 } }));
    const r = await preview("--cwd", EVERY_KIND, "--policy-pack-config", config);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/advisory.*vm-size-limits/s);
    expect(r.stdout).toContain("VM 'pol-web': ram 2048 MB is above the limit of 1024 MB");
  }, 300_000);
});

describe("the pack stops at preview what the team agreed never to ship", () => {
  let stopped: Run;
  beforeAll(async () => {
    team.writeEnvironment("prod-eu", violatingEnvironment);
    stopped = await preview();
  }, 300_000);

  test("the environment file below breaks every rule of the pack", () => {
    expect(Object.keys(VIOLATIONS).sort()).toEqual([...RULES].sort());
  });

  test("the preview fails", () => {
    expect(stopped.code).not.toBe(0);
  });

  test.each(RULES)("%s stops it, mandatory, with its message", (rule) => {
    const output = stopped.stdout + stopped.stderr;
    expect(output).toMatch(new RegExp(`\\[mandatory\\]\\s+${rule}\\b`));
    for (const message of VIOLATIONS[rule]) expect(output).toMatch(message);
  });
});
