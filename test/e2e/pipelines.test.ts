// Pipelines at once: `vplatform env up` started together on one stack (the
// backend's lock lets one run; the other fails fast, or waits when asked), and
// on two stacks against one platform with one API key (the key's rate limit is
// shared, each process's pacer knows only its own requests: the 429s are waited
// out). State in PostgreSQL, as a team keeps it.
import { startEmulator, type RunningEmulator } from "../../emulator";
import { startPostgres, type RunningPostgres } from "./postgres";
import { createTeamRepo, type TeamRepo } from "./teamRepo";

const environment = (prefix: string, ram: number) => `vnets:
  - name: ${prefix}-net
    network: 10.62.${prefix === "staging" ? 1 : 0}.0/24
vms:
${[1, 2]
  .map(
    (n) => `  - name: ${prefix}-vm${n}
    cpuCores: 1
    ram: ${ram}
    powerState: running
    drives:
      - { name: os, media: disk, disksize: 5GiB }
    nics:
      - vnet: ${prefix}-net
`,
  )
  .join("")}`;

let postgres: RunningPostgres;
let emulator: RunningEmulator;
let team: TeamRepo;

async function api(apiPath: string): Promise<any> {
  const { default: got } = await import("got");
  return got(`${emulator.url}/api${apiPath}`, {
    headers: { authorization: `Bearer ${emulator.apiKey}` },
    https: { certificateAuthority: emulator.caCert },
  }).json();
}

/** Each resource of the stack's state once, by URN. */
async function stateUrns(stack: string): Promise<string[]> {
  // The CLI's stacks belong to project vplatform-env; the repository's Pulumi.yaml names another.
  const exported = await team.pulumi("stack", "export", "--stack", `organization/vplatform-env/${stack}`);
  expect(exported.code).toBe(0);
  return JSON.parse(exported.stdout).deployment.resources.map((r: { urn: string }) => r.urn);
}

const vmNames = async () =>
  (await api("/v4/vms?fields=name&filter=is_snapshot%20eq%20false&sort=%2Bname")).map((v: { name: string }) => v.name);

beforeAll(async () => {
  postgres = await startPostgres();
}, 60_000);
afterAll(async () => {
  await postgres?.stop();
});

/** A platform for the describe block, and the team's repository using it. */
function platformFor(options: Parameters<typeof startEmulator>[0]): void {
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, timeScale: 0.01, quiet: true, ...options });
    team = createTeamRepo(emulator, postgres.url);
  });
  afterAll(async () => {
    await emulator?.close();
    team?.remove();
  });
}

describe("two pipelines on the same stack", () => {
  platformFor({});

  test("one proceeds, the other fails fast saying the stack is locked and what to do; with --wait-for-lock both finish", async () => {
    team.writeEnvironment("dev", environment("dev", 1024));
    expect((await team.vplatform("preview", "environments/dev.yaml", "--stack", "dev")).code).toBe(0);

    const [a, b] = await Promise.all([1, 2].map(() => team.vplatform("up", "environments/dev.yaml", "--stack", "dev")));
    const codes = [a.code, b.code].sort();
    // When neither proceeds, their own words say why.
    expect({ codes, said: codes[0] === 0 ? [] : [a.stderr.slice(-1500), b.stderr.slice(-1500)] }).toEqual({ codes: [0, 1], said: [] });
    const refused = a.code === 1 ? a : b;
    expect(refused.stderr).toMatch(/error: stack 'dev' is locked by another update .*--wait-for-lock <seconds>/);
    // The way out for a dead update's lock, as it must be typed outside a Pulumi project (state in PostgreSQL here).
    expect(refused.stderr).toContain("`pulumi cancel --yes --stack organization/vplatform-env/dev` removes its lock");
    expect(refused.stdout).toMatch(/FAILED \(exit 1\)/);

    // A change, applied by two pipelines at once that are told to wait: the second runs after the first.
    team.writeEnvironment("dev", environment("dev", 2048));
    const waiting = await Promise.all(
      [1, 2].map(() => team.vplatform("up", "environments/dev.yaml", "--stack", "dev", "--wait-for-lock", "300")),
    );
    expect(waiting.map((r) => r.code)).toEqual([0, 0]);
    expect(waiting.map((r) => r.stderr).join("\n")).toMatch(/stack 'dev' is locked by another update; waiting/);

    // Every resource once in the state and on the platform, converged.
    const urns = await stateUrns("dev");
    expect(new Set(urns).size).toBe(urns.length);
    expect(urns.filter((u) => /vplatform:VirtualMachine::[^:]+$/.test(u))).toHaveLength(2);
    expect(await vmNames()).toEqual(["dev-vm1", "dev-vm2"]);
    expect((await api("/v4/vms?fields=ram&filter=name%20bw%20'dev-'")).map((v: { ram: number }) => v.ram)).toEqual([2048, 2048]);
    expect((await team.vplatform("drift", "environments/dev.yaml", "--stack", "dev")).code).toBe(0);
    expect((await team.vplatform("destroy", "environments/dev.yaml", "--stack", "dev")).code).toBe(0);
  }, 600_000);
});

describe("two stacks against one platform with one API key", () => {
  // 20 requests per key-hour, the hour 18 s long: two stacks at once need more than an hour's worth.
  platformFor({ timeScale: 0.005, rateLimitPerHour: 20, rateLimitFollowsTimeScale: true });

  test("dev and staging come up together: the rate limit's 429s are waited out, no orphan, no duplicate", async () => {
    team.writeEnvironment("dev", environment("dev", 1024));
    team.writeEnvironment("staging", environment("staging", 1024));
    const runs = await Promise.all(["dev", "staging"].map((s) => team.vplatform("up", `environments/${s}.yaml`, "--stack", s)));
    expect(runs.map((r) => r.code)).toEqual([0, 0]);
    expect(runs.map((r) => r.stderr).join("\n")).toMatch(/the platform answered 429 \(rate limit\); waiting/);

    expect(await vmNames()).toEqual(["dev-vm1", "dev-vm2", "staging-vm1", "staging-vm2"]);
    expect(await api("/v4/machine_drives?fields=name")).toHaveLength(4);
    for (const stack of ["dev", "staging"]) {
      const urns = await stateUrns(stack);
      expect(new Set(urns).size).toBe(urns.length);
      expect(urns.filter((u) => /vplatform:VirtualMachine::[^:]+$/.test(u))).toHaveLength(2);
      expect((await team.vplatform("drift", `environments/${stack}.yaml`, "--stack", stack)).code).toBe(0);
    }
    const destroyed = await Promise.all(["dev", "staging"].map((s) => team.vplatform("destroy", `environments/${s}.yaml`, "--stack", s)));
    expect(destroyed.map((r) => r.code)).toEqual([0, 0]);
    expect(await vmNames()).toEqual([]);
  }, 600_000);
});
