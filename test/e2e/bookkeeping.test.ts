// The drift check most teams already have, the stock `pulumi preview
// --expect-no-changes`, on a lab nothing declared has changed in: the
// provider's bookkeeping (create markers, the owner fields the SDK copies into
// hardware) is no change for it. State in PostgreSQL, as a team keeps it.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { startPostgres, type RunningPostgres } from "./postgres";
import { createTeamRepo, type TeamRepo } from "./teamRepo";

const LAB = (policy: string) => `vnets:
  - name: book-net
    network: 10.61.0.0/24
vms:
  - name: book-web
    cpuCores: 1
    ram: 1024
    powerState: running
    powerCyclePolicy: ${policy}
    drives:
      - { name: os, media: disk, disksize: 5GiB }
    nics:
      - vnet: book-net
`;

const fixture = path.join(__dirname, "fixtures", "previous-release");
let postgres: RunningPostgres;

beforeAll(async () => {
  postgres = await startPostgres();
}, 60_000);
afterAll(async () => {
  await postgres?.stop();
});

describe("pulumi preview --expect-no-changes passes when nothing declared changed", () => {
  let emulator: RunningEmulator;
  let team: TeamRepo;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, timeScale: 0.01, quiet: true });
    team = createTeamRepo(emulator, postgres.url);
  });
  afterAll(async () => {
    await emulator?.close();
    team?.remove();
  });

  test("after up, and after an up --target of the VM alone that changed its power-cycle policy", async () => {
    team.writeEnvironment("book", LAB("restart"));
    expect(await team.pulumi("stack", "init", "--stack", "book")).toMatchObject({ code: 0 });
    expect(await team.pulumi("up", "--yes", "--skip-preview", "--stack", "book")).toMatchObject({ code: 0 });
    const unchanged = await team.pulumi("preview", "--expect-no-changes", "--diff", "--stack", "book");
    expect(unchanged.code).toBe(0);
    expect(unchanged.stdout).not.toMatch(/__marker|powerCyclePolicy|\bvm:/);

    // The VM's policy changes and only the VM is updated: its drive and NIC keep the copies of the old policy.
    team.writeEnvironment("book", LAB("refuse"));
    const vmUrn = "urn:pulumi:book::team-environments::pulumi-nodejs:dynamic/vplatform:VirtualMachine::book-web";
    const targeted = await team.pulumi("up", "--yes", "--skip-preview", "--target", vmUrn, "--stack", "book");
    expect(targeted).toMatchObject({ code: 0 });
    expect(targeted.stdout).toMatch(/1 updated/);
    const after = await team.pulumi("preview", "--expect-no-changes", "--diff", "--stack", "book");
    expect(after.code).toBe(0);
    expect(after.stdout).not.toMatch(/powerCyclePolicy/);
    expect(await team.pulumi("destroy", "--yes", "--skip-preview", "--stack", "book")).toMatchObject({ code: 0 });
  }, 300_000);
});

describe("an upgrade keeps the state of the previous release free of changes", () => {
  let emulator: RunningEmulator;
  let team: TeamRepo;
  let platformState: string;
  beforeAll(async () => {
    // The platform as the previous release left it (the emulator's saved state of the same run as the stack's export).
    platformState = fs.mkdtempSync(path.join(os.tmpdir(), "previous-release-"));
    fs.cpSync(path.join(fixture, "emulator"), platformState, { recursive: true });
    emulator = await startEmulator({ port: 0, timeScale: 0.01, quiet: true, dataDir: platformState });
    team = createTeamRepo(emulator, postgres.url);
  });
  afterAll(async () => {
    await emulator?.close();
    team?.remove();
    fs.rmSync(platformState, { recursive: true, force: true });
  });

  test("state exported by the previous release, imported and previewed by this one: no changes", async () => {
    team.writeEnvironment("upgrade", fs.readFileSync(path.join(fixture, "upgrade.yaml"), "utf8"));
    expect(await team.pulumi("stack", "init", "--stack", "upgrade")).toMatchObject({ code: 0 });
    expect(await team.pulumi("stack", "import", "--file", path.join(fixture, "stack.json"), "--stack", "upgrade")).toMatchObject({
      code: 0,
    });
    const preview = await team.pulumi("preview", "--expect-no-changes", "--diff", "--stack", "upgrade");
    expect(preview.stderr).toBe("");
    expect(preview.code).toBe(0);
    expect(preview.stdout).toMatch(/6 unchanged/);
    // A refresh reads the same platform: nothing changed outside either.
    const drift = await team.pulumi("preview", "--refresh", "--expect-no-changes", "--stack", "upgrade");
    expect(drift.code).toBe(0);
  }, 300_000);
});
