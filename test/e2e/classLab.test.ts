// A class of 5 from one environment file, through the real `vplatform env` CLI (the commands a course leader runs,
// the compiled CLI in a directory of its own, the local default backend) under the real engine against the
// emulator: up, the copies isolated, the roster, one copy changed outside (its RAM, and a NIC on another copy's
// network: drift names it alone), its reset (the drive's content back to the snapshot's, the NIC removed, no drift), grow to 6 and back to 5 touching copy 6 alone, destroy with
// nothing left. The guide's worked commands are the ones run here. Request counts go to the console (the bench's
// figures, measured on the CLI's own path).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { classFloor } from "../../bench/class/floor";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { findRepoRoot } from "../../env/local-stack";
import { runProgram, type Run } from "./teamRepo";

jest.setTimeout(900_000);

const COPIES = 5;
const classFile = (copies: number) => `# a class: copy n is course-0n on the pool's n-th /24 (course-01: 10.100.0.0/24)
vms:
  - name: golden
    cpuCores: 1
    ram: 1024
    drives:
      - { name: os, media: disk, interface: virtio-scsi, disksize: 1GiB }
labs:
  - name: course
    copies: ${copies}
    pool: 10.100.0.0/16
    vms:
      - name: web
        cloneFrom: { vm: golden }
        powerState: running
        nics: [{ name: eth0 }]
      - name: db
        cpuCores: 1
        ram: 1024
        powerState: running
        drives:
          - { name: data, media: disk, interface: virtio-scsi, disksize: 1GiB }
        nics: [{ name: eth0 }]
    user: {}
    apiKey: { expires: never }
    resetSnapshot: start
`;

const GUIDE = fs.readFileSync(path.join(findRepoRoot(), "docs", "guides", "class-labs.md"), "utf8");
let emulator: RunningEmulator;
let dir: string;
/** The guide's commands this test ran, each checked against the guide at the end. */
const ran = new Set<string>();

/** `vplatform env <command>` as the guide writes it, run with only the environment a course leader's shell gives. */
function vplatform(command: string): Promise<Run> {
  ran.add(command);
  const keep = ["PATH", "HOME", "VPLATFORM_PULUMI_ROOT", "NODE_OPTIONS"];
  const env = {
    ...Object.fromEntries(keep.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]!])),
    PULUMI_HOME: path.join(dir, ".pulumi-home"),
    VPLATFORM_ENDPOINT: emulator.url,
    VPLATFORM_API_KEY: emulator.apiKey,
    VPLATFORM_CA_CERT: emulator.caCert,
  };
  const cli = path.join(findRepoRoot(), "dist", "env", "cli.js");
  return runProgram(process.execPath, [cli, "env", ...command.split(" ")], { cwd: dir, env });
}

async function request(url: string, method = "GET", body?: unknown, key = emulator.apiKey) {
  const { default: got } = await import("got");
  return got(url, {
    method: method as "GET",
    headers: { authorization: `Bearer ${key}` },
    https: { certificateAuthority: emulator.caCert },
    throwHttpErrors: false,
    ...(body === undefined ? {} : { json: body }),
  });
}
async function api(apiPath: string, method = "GET", body?: unknown): Promise<any> {
  const r = await request(`${emulator.url}/api${apiPath}`, method, body);
  if (r.statusCode >= 400) throw new Error(`${method} ${apiPath}: ${r.statusCode} ${r.body}`);
  return JSON.parse(r.body);
}
const hook = async (hookPath: string, method = "GET", body?: unknown): Promise<any> =>
  JSON.parse((await request(`${emulator.url}/_emulator${hookPath}`, method, body)).body);
const q = (s: string) => encodeURIComponent(s);

/** What the emulator counted since the last call (then zeroed): the total and per method and table. */
async function counted(label: string, perVm?: number): Promise<number> {
  const { total, entries } = await hook("/requests");
  await hook("/requests", "DELETE");
  const by = (entries as { method: string; table: string; count: number }[])
    .map((e) => `${e.method} ${e.table} ${e.count}`)
    .sort()
    .join(", ");
  console.log(`class of ${COPIES}: ${label}: ${total} requests${perVm ? ` (${(total / perVm).toFixed(2)} a VM)` : ""}: ${by}`);
  return total;
}

/** The stack's `labs` output as the state holds it (the API keys' secrets are ciphertext there). */
interface LabVm {
  id: string;
  machineKey: string;
  name: string;
  snapshot: string;
}
interface Copy {
  number: number;
  name: string;
  vnet: { id: string; name: string; network: string };
  user: { id: string; name: string };
  apiKey: { id: string };
  vms: Record<string, LabVm>;
}
function labsOutput(): Record<string, Copy> {
  const file = path.join(dir, ".vplatform", "state", ".pulumi", "stacks", "vplatform-env", "spring.json");
  const state = JSON.parse(fs.readFileSync(file, "utf8"));
  const root = state.checkpoint.latest.resources.find((r: { type: string }) => r.type === "pulumi:pulumi:Stack");
  return root.outputs.labs.course.copies;
}

/** The outputs but for the secrets' ciphertexts (each write of the state encrypts them anew). */
const withoutCiphertexts = (copies: Record<string, Copy>) =>
  Object.fromEntries(Object.entries(copies).map(([n, { apiKey, ...copy }]) => [n, { ...copy, apiKey: apiKey.id }]));

const driveOf = async (vm: LabVm | { machineKey: string }, name: string): Promise<string> => {
  const [drive] = await api(`/v4/machine_drives?filter=${q(`machine eq ${vm.machineKey} and name eq '${name}'`)}&fields=$key`);
  return String(drive.$key);
};
const content = async (drive: string): Promise<string> => (await hook(`/drives/${drive}/content`)).content;
const changeNames = (run: Run) =>
  JSON.parse(run.stdout).plan.changes.map((c: { action: string; type: string; name: string }) => `${c.action} ${c.type} ${c.name}`);

let baseline: { users: string[]; keys: string[]; vnets: string[] };
const names = async (table: string) => ((await api(`/v4/${table}?fields=$key`)) as { $key: unknown }[]).map((r) => String(r.$key)).sort();

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, timeScale: 0.01, quiet: true });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "class-lab-"));
  fs.writeFileSync(path.join(dir, "class.yaml"), classFile(COPIES));
  baseline = { users: await names("users"), keys: await names("user_api_keys"), vnets: await names("vnets") };
});
afterAll(async () => {
  await emulator?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("a class of 5 from one file, through `vplatform env`", () => {
  let copies: Record<string, Copy>;

  test("up: 5 copies, each VM's NIC on its own copy's vnet, the networks disjoint and running, each key its copy's user's", async () => {
    await hook("/requests", "DELETE");
    const up = await vplatform("up class.yaml --stack spring");
    expect(up).toMatchObject({ code: 0 });
    await counted("up", COPIES * 2);
    copies = labsOutput();
    expect(Object.keys(copies)).toEqual(["01", "02", "03", "04", "05"]);
    const networks = new Set<string>();
    for (const [n, copy] of Object.entries(copies)) {
      expect(copy).toMatchObject({ number: Number(n), name: `course-${n}`, vnet: { name: `course-${n}` }, user: { name: `course-${n}` } });
      networks.add(copy.vnet.network);
      expect(await api(`/v4/vnets/${copy.vnet.id}?fields=name,network,machine%23status%23status%20as%20status`)).toEqual({
        name: `course-${n}`,
        network: `10.100.${Number(n) - 1}.0/24`,
        status: "running",
      });
      expect(Object.keys(copy.vms).sort()).toEqual(["db", "web"]);
      for (const vm of Object.values(copy.vms)) {
        const nics = await api(`/v4/machine_nics?filter=${q(`machine eq ${vm.machineKey}`)}&fields=vnet`);
        expect(nics.map((nic: { vnet: unknown }) => String(nic.vnet))).toEqual([copy.vnet.id]);
        const drives = await api(`/v4/machine_drives?filter=${q(`machine eq ${vm.machineKey}`)}&fields=name`);
        expect(drives).toHaveLength(1);
        expect(await api(`/v4/vms/${vm.id}?fields=name,machine%23status%23status%20as%20status`)).toEqual({
          name: vm.name,
          status: "running",
        });
        expect(await api(`/v4/vms/${vm.snapshot}?fields=name,is_snapshot`)).toEqual({ name: "start", is_snapshot: true });
      }
    }
    expect(networks.size).toBe(COPIES);

    // Each copy's key authenticates, and it is the key of the copy's user (its last login is the one just made).
    const roster = await vplatform("roster class.yaml --stack spring --json --show-secrets");
    expect(roster.code).toBe(0);
    const secrets: string[] = JSON.parse(roster.stdout).copies.map((c: { apiKey: string }) => c.apiKey);
    for (const [i, copy] of Object.values(copies).entries()) {
      expect((await request(`${emulator.url}/api/v4/system`, "GET", undefined, secrets[i])).statusCode).toBe(200);
      const key = await api(`/v4/user_api_keys/${copy.apiKey.id}?fields=user,lastlogin_stamp`);
      expect(String(key.user)).toBe(copy.user.id);
      expect(key.lastlogin_stamp).toBeGreaterThan(0);
      expect(await api(`/v4/users/${copy.user.id}?fields=name,role`)).toEqual({ name: copy.name, role: "none" });
      for (const later of Object.values(copies).slice(i + 1))
        expect((await api(`/v4/user_api_keys/${later.apiKey.id}?fields=lastlogin_stamp`)).lastlogin_stamp).toBe(0);
    }
  });

  test("roster --markdown: a table of the 5 copies, the keys [secret]; --json --show-secrets: the secrets", async () => {
    await hook("/requests", "DELETE");
    const md = await vplatform("roster class.yaml --stack spring --markdown");
    await counted("roster");
    expect(md.code).toBe(0);
    expect(md.stdout).toContain("## Lab course: 5 copies");
    expect(md.stdout).toContain("| # | Copy | User | API key | Network | VMs |");
    const rows = md.stdout.split("\n").filter((l) => /^\| \d+ \|/.test(l));
    expect(rows.map((r) => r.split(" | ").slice(0, 5).join(" | "))).toEqual(
      [1, 2, 3, 4, 5].map((n) => `| ${n} | course-0${n} | course-0${n} | \`[secret]\` | course-0${n} 10.100.${n - 1}.0/24`),
    );
    for (const row of rows) expect(row.match(/, running/g)).toHaveLength(2);
    expect(md.stdout + md.stderr).not.toMatch(/vpk_\w+/);

    const json = await vplatform("roster class.yaml --stack spring --json --show-secrets");
    expect(json.code).toBe(0);
    const secrets = JSON.parse(json.stdout).copies.map((c: { apiKey: string }) => c.apiKey);
    expect(secrets).toHaveLength(COPIES);
    for (const s of secrets) expect(s).toMatch(/^vpk_\w+/);
    expect(new Set(secrets).size).toBe(COPIES);
  });

  test("a VM of copy 3 changed outside, a NIC on copy 4's network added to it: drift exits 2 naming copy 3 only; a reset of copy 3 puts it back: drift exits 0", async () => {
    // The db VM declares its RAM (a clone's undeclared fields are the golden VM's, not the file's).
    const db = copies["03"].vms.db;
    const drive = await driveOf(db, "data");
    const [snapshotVm] = await api(`/v4/vms?filter=${q(`$key eq ${db.snapshot}`)}&fields=machine`);
    const atSnapshot = await content(await driveOf({ machineKey: String(snapshotVm.machine) }, "data"));
    // A student's session: the guest writes the disk, and the RAM is changed through the API.
    await hook(`/drives/${drive}/content`, "PUT", { content: "session 1 of copy 3" });
    const otherDrive = await driveOf(copies["02"].vms.db, "data");
    await hook(`/drives/${otherDrive}/content`, "PUT", { content: "session 1 of copy 2" });
    await api(`/v4/vms/${db.id}`, "PUT", { ram: 2048 });
    // A NIC the file does not declare, on another copy's network (as a key allowed to add one could).
    const stray = await api("/v4/machine_nics", "POST", { machine: db.machineKey, vnet: copies["04"].vnet.id, name: "bridge" });
    const bridge = (await api(`/v4/machine_nics/${stray.$key}?fields=macaddress`)).macaddress;

    const drift = await vplatform("drift class.yaml --stack spring --json");
    expect(drift).toMatchObject({ code: 2 });
    const report = JSON.parse(drift.stdout).plan;
    expect(report.changes.length).toBeGreaterThan(0);
    for (const c of [...report.changes, ...report.outside]) expect(c.name).toMatch(/^course-03-/);
    expect(report.changes).toContainEqual(
      expect.objectContaining({
        action: "update",
        name: "course-03-db",
        fields: [
          { field: "exclusiveHardware", before: false, after: true },
          { field: "ram", before: 2048, after: 1024 },
        ],
      }),
    );
    expect(drift.stderr + drift.stdout).toContain(`NIC 'bridge' (key ${stray.$key}) on vnet ${copies["04"].vnet.id}`);

    await hook("/requests", "DELETE");
    const reset = await vplatform("reset class.yaml --stack spring --copy 3");
    // Its floor (bench/class/floor.ts: a kill and a restore with power-on a VM; the look at the VMs' status, their and
    // their snapshots' NICs and devices; one read of the shared poll), the stray NIC's DELETE and at most one read more.
    const strayRemoval = 1;
    expect(await counted("reset --copy 3", 2)).toBeLessThanOrEqual(
      classFloor("reset", { copies: 1, vmsPerCopy: 2 }).requests + strayRemoval + 1,
    );
    expect(reset).toMatchObject({ code: 0 });
    expect(reset.stdout.trim().split("\n")).toEqual([
      `course-03 db (course-03-db): killed, removed NIC 'bridge' (${bridge}) on vnet ${copies["04"].vnet.id}, restored to snapshot ${db.snapshot}, running`,
      `course-03 web (course-03-web): killed, restored to snapshot ${copies["03"].vms.web.snapshot}, running`,
    ]);
    expect(await content(drive)).toBe(atSnapshot);
    const nics = await api(`/v4/machine_nics?filter=${q(`machine eq ${db.machineKey}`)}&fields=vnet`);
    expect(nics.map((n: { vnet: unknown }) => String(n.vnet))).toEqual([copies["03"].vnet.id]);
    expect(await content(otherDrive)).toBe("session 1 of copy 2");
    expect(await api(`/v4/vms/${db.id}?fields=ram,machine%23status%23status%20as%20status`)).toEqual({ ram: 1024, status: "running" });

    const clean = await vplatform("drift class.yaml --stack spring");
    expect(clean).toMatchObject({ code: 0 });
    expect(clean.stdout).toContain("No drift: the platform matches the file.\n");
  });

  test("reset --all: every VM of the class back to its snapshot and running, at its floor and at most one status read more", async () => {
    await hook("/requests", "DELETE");
    const reset = await vplatform("reset class.yaml --stack spring --all");
    const sent = await counted("reset --all", COPIES * 2);
    expect(reset).toMatchObject({ code: 0 });
    expect(reset.stdout.trim().split("\n")).toHaveLength(COPIES * 2);
    // The floor (bench/class/floor.ts), the whole class in one wave, and at most one read more.
    expect(sent).toBeLessThanOrEqual(classFloor("reset", { copies: COPIES, vmsPerCopy: 2 }).requests + 1);
    for (const copy of Object.values(copies))
      for (const vm of Object.values(copy.vms))
        expect(await api(`/v4/vms/${vm.id}?fields=machine%23status%23status%20as%20status`)).toEqual({ status: "running" });
  });

  test("grow to 6 creates copy 6 only; back to 5 deletes copy 6 only", async () => {
    fs.writeFileSync(path.join(dir, "class.yaml"), classFile(COPIES + 1));
    const grow = await vplatform("up class.yaml --stack spring --json");
    expect(grow.code).toBe(0);
    const grown = changeNames(grow);
    expect(grown.length).toBeGreaterThan(0);
    for (const c of grown) expect(c).toMatch(/^create \w+ course-06\b/);
    expect(grown).toEqual(
      expect.arrayContaining(["create Vnet course-06", "create User course-06", "create VirtualMachine course-06-web"]),
    );
    expect(Object.keys(labsOutput())).toEqual(["01", "02", "03", "04", "05", "06"]);

    fs.writeFileSync(path.join(dir, "class.yaml"), classFile(COPIES));
    const shrink = await vplatform("up class.yaml --stack spring --json");
    expect(shrink.code).toBe(0);
    const shrunk = changeNames(shrink);
    expect(shrunk.sort()).toEqual(grown.map((c: string) => c.replace(/^create/, "delete")).sort());
    expect(withoutCiphertexts(labsOutput())).toEqual(withoutCiphertexts(copies));
  });

  test("destroy leaves nothing: no VM, snapshot, vnet, user or key", async () => {
    const destroy = await vplatform("destroy class.yaml --stack spring");
    expect(destroy.code).toBe(0);
    expect(await api("/v4/vms?fields=$key")).toEqual([]);
    expect(await api("/v4/machine_snapshots?fields=$key")).toEqual([]);
    expect(await names("vnets")).toEqual(baseline.vnets);
    expect(await names("users")).toEqual(baseline.users);
    expect(await names("user_api_keys")).toEqual(baseline.keys);
  });

  test("the guide's worked commands are the ones run here", () => {
    const guided = [...GUIDE.matchAll(/^vplatform env (.+)$/gm)].map((m) => m[1]);
    expect(guided.length).toBeGreaterThan(0);
    for (const command of guided) expect(ran).toContain(command);
  });
});
