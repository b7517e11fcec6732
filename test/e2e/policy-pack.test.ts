// The policy pack of the package under the real engine, run locally (no
// Pulumi Cloud): `pulumi preview --policy-pack node_modules/vplatform/policy`.
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { startPostgres, type RunningPostgres } from "./postgres";
import { createTeamRepo, type TeamRepo } from "./teamRepo";

const environment = (policy: string, ram: number) => `vnets:
  - name: pol-net
    network: 10.64.0.0/24
vms:
  - name: pol-web
    cpuCores: 2
    ram: ${ram}
    powerCyclePolicy: ${policy}
    drives:
      - { name: os, media: disk, disksize: 10GiB }
    nics:
      - vnet: pol-net
`;

let postgres: RunningPostgres;
let emulator: RunningEmulator;
let team: TeamRepo;

beforeAll(async () => {
  postgres = await startPostgres();
  emulator = await startEmulator({ port: 0, timeScale: 0.01, quiet: true });
  team = createTeamRepo(emulator, postgres.url);
  expect(await team.pulumi("stack", "init", "--stack", "prod-eu")).toMatchObject({ code: 0 });
}, 60_000);
afterAll(async () => {
  await emulator?.close();
  await postgres?.stop();
  team?.remove();
});

const preview = (...extra: string[]) =>
  team.pulumi("preview", "--stack", "prod-eu", "--policy-pack", "node_modules/vplatform/policy", ...extra);

describe("the policy pack stops at preview what the team agreed never to ship", () => {
  test("a production VM that would be restarted unannounced is stopped with the rule's message (mandatory)", async () => {
    team.writeEnvironment("prod-eu", environment("restart", 2048));
    const r = await preview();
    expect(r.code).not.toBe(0);
    expect(r.stdout + r.stderr).toMatch(/mandatory.*prod-vms-refuse-power-cycle/s);
    expect(r.stdout + r.stderr).toContain("stack 'prod-eu' is production (prod*): set powerCyclePolicy: refuse on VM 'pol-web'");
  }, 300_000);

  test("the compliant program passes", async () => {
    team.writeEnvironment("prod-eu", environment("refuse", 2048));
    const r = await preview();
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Policies:\s+✅ vplatform@v/);
  }, 300_000);

  test("rules are configured through the pack's config: a lower RAM limit, made advisory, warns without stopping", async () => {
    const config = path.join(team.dir, "policy-config.json");
    fs.writeFileSync(config, JSON.stringify({ "vm-size-limits": { enforcementLevel: "advisory", maxRamMB: 1024 } }));
    const r = await preview("--policy-pack-config", config);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/advisory.*vm-size-limits/s);
    expect(r.stdout).toContain("VM 'pol-web': ram 2048 MB is above the limit of 1024 MB");
  }, 300_000);
});
