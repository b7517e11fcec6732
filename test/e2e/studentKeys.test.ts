// A class you can hand to students: a 4-copy class through the real `vplatform env` CLI under the real engine,
// then each copy's key, as `roster --json --show-secrets` gives it, tried on every copy. For every ordered pair
// (i, j) of different copies, copy i's key lists copy i's VMs only, and every change it tries on copy j (power off,
// kill, restore, a settings change, a drive or NIC added or deleted, a snapshot deleted), and a NIC on its own VM
// on copy j's network, answers 403 with copy j's and copy i's rows byte for byte as they were. On its own VM the key
// powers off, powers on and restores. `vplatform student reset` with copy i's key puts copy i back and nothing
// else. One provisioning; the rest is direct API calls and the CLI's own process. The matrix is printed.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { type RunningEmulator, startEmulator } from "../../emulator";
import { findRepoRoot } from "../../env/local-stack";
import { type Run, runProgram } from "./teamRepo";

jest.setTimeout(600_000);

const COPIES = 4;
/** The student's commands as the class-labs guide gives them: run here as written, on this emulator's address. */
const GUIDE = fs.readFileSync(path.join(findRepoRoot(), "docs", "guides", "class-labs.md"), "utf8");
const GUIDED_RESET = /^export VPLATFORM_API_KEY=\S+.*\nnpx vplatform (student reset .+)$/m.exec(GUIDE)?.[1];
const CLASS = `labs:
  - name: term
    copies: ${COPIES}
    pool: 10.110.0.0/16
    vms:
      - name: lab
        cpuCores: 1
        ram: 1024
        powerState: running
        drives: [{ name: data, media: disk, disksize: 1GiB }]
        nics: [{ name: eth0 }]
    user: {}
    apiKey: { expires: never }
    resetSnapshot: start
`;

let emulator: RunningEmulator;
let dir: string;

/** A command of the `vplatform` CLI (the compiled one, as a user's shell runs it): the leader's key unless `env` gives another. */
function vplatform(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const keep = ["PATH", "HOME", "VPLATFORM_PULUMI_ROOT", "NODE_OPTIONS"];
  return runProgram(process.execPath, [path.join(findRepoRoot(), "dist", "env", "cli.js"), ...args], {
    cwd: dir,
    env: {
      ...Object.fromEntries(keep.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]!])),
      PULUMI_HOME: path.join(dir, ".pulumi-home"),
      VPLATFORM_ENDPOINT: emulator.url,
      VPLATFORM_API_KEY: emulator.apiKey,
      VPLATFORM_CA_CERT: emulator.caCert,
      ...env,
    },
  });
}

interface Answer {
  status: number;
  text: string;
}
async function call(method: string, apiPath: string, key: string, body?: unknown): Promise<Answer> {
  const { default: got } = await import("got");
  const r = await got(`${emulator.url}/api/v4/${apiPath}`, {
    method: method as "GET",
    headers: { authorization: `Bearer ${key}` },
    https: { certificateAuthority: emulator.caCert },
    throwHttpErrors: false,
    retry: { limit: 0 },
    ...(body === undefined ? {} : { json: body }),
  });
  return { status: r.statusCode, text: r.body };
}
/** As the course leader (the emulator's admin key): the platform as it is. */
async function admin(apiPath: string, method = "GET", body?: unknown): Promise<any> {
  const r = await call(method, apiPath, emulator.apiKey, body);
  if (r.status >= 400) throw new Error(`${method} ${apiPath}: ${r.status} ${r.text}`);
  return r.text ? JSON.parse(r.text) : undefined;
}
const q = (s: string) => encodeURIComponent(s);

/** A copy as the test knows it: the roster's key and VM, and the rows the leader reads. */
interface Copy {
  n: number;
  key: string;
  vm: string;
  machine: string;
  vnet: string;
  console: string;
  snapshotVm: string;
  snapshotRecord: string;
  drive: string;
  nic: string;
}
let copies: Copy[];

/** Every row of a copy, as the platform answers them: what must be byte for byte the same after a refused change. */
async function rowsOf(c: Copy): Promise<string> {
  const texts = await Promise.all([
    call("GET", `vms/${c.vm}?fields=all`, emulator.apiKey),
    call("GET", `vms/${c.snapshotVm}?fields=all`, emulator.apiKey),
    call("GET", `machine_drives?filter=${q(`machine eq ${c.machine}`)}&fields=all&sort=%2B$key`, emulator.apiKey),
    call("GET", `machine_nics?filter=${q(`machine eq ${c.machine}`)}&fields=all&sort=%2B$key`, emulator.apiKey),
    call("GET", `machine_snapshots?filter=${q(`machine eq ${c.machine}`)}&fields=all&sort=%2B$key`, emulator.apiKey),
    call("GET", `machine_status/${c.machine}?fields=status,running`, emulator.apiKey),
    call("GET", `vnets/${c.vnet}?fields=all`, emulator.apiKey),
  ]);
  return texts.map((t) => t.text).join("\n");
}

/** Waits until the machine's status is `status` (the leader's reads; the emulator runs at 1/100 of real time). */
async function until(c: Copy, status: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if ((await admin(`machine_status/${c.machine}?fields=status`)).status === status) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`VM of copy ${c.n} never ${status}`);
}

/** What copy i's key tries on copy j: each must answer 403. */
const ATTEMPTS: { name: string; send: (i: Copy, j: Copy) => Promise<Answer> }[] = [
  { name: "read", send: (i, j) => call("GET", `vms/${j.vm}`, i.key) },
  { name: "power off", send: (i, j) => call("POST", "vm_actions", i.key, { vm: j.vm, action: "poweroff" }) },
  { name: "kill", send: (i, j) => call("POST", "vm_actions", i.key, { vm: j.vm, action: "kill" }) },
  {
    name: "restore",
    send: (i, j) => call("POST", "vm_actions", i.key, { vm: j.vm, action: "restore", params: { snapshot_id: j.snapshotRecord } }),
  },
  { name: "settings", send: (i, j) => call("PUT", `vms/${j.vm}`, i.key, { ram: 2048, description: "changed by another copy" }) },
  { name: "drive add", send: (i, j) => call("POST", "machine_drives", i.key, { machine: j.machine, media: "disk", disksize: 2 ** 30 }) },
  { name: "drive delete", send: (i, j) => call("DELETE", `machine_drives/${j.drive}`, i.key) },
  { name: "NIC add", send: (i, j) => call("POST", "machine_nics", i.key, { machine: j.machine, vnet: i.vnet }) },
  { name: "NIC delete", send: (i, j) => call("DELETE", `machine_nics/${j.nic}`, i.key) },
  { name: "snapshot delete", send: (i, j) => call("DELETE", `machine_snapshots/${j.snapshotRecord}`, i.key) },
  { name: "snapshot VM delete", send: (i, j) => call("DELETE", `vms/${j.snapshotVm}`, i.key) },
  { name: "own NIC on j's vnet", send: (i, j) => call("POST", "machine_nics", i.key, { machine: i.machine, vnet: j.vnet }) },
  {
    name: "own hot-plugged NIC on j's vnet",
    send: (i, j) => call("POST", "vm_actions", i.key, { vm: i.vm, action: "hotplugnic", params: { vnet: j.vnet } }),
  },
];

/** The matrix: per key (row) and target copy (column), what it got. */
const matrix: string[][] = Array.from({ length: COPIES }, () => Array(COPIES).fill("·"));
const started = Date.now();

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, timeScale: 0.01, quiet: true });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "student-keys-"));
  fs.writeFileSync(path.join(dir, "class.yaml"), CLASS);
});
afterAll(async () => {
  const head = `| key \\ copy | ${Array.from({ length: COPIES }, (_, j) => j + 1).join(" | ")} |`;
  const lines = matrix.map((row, i) => `| ${i + 1} | ${row.join(" | ")} |`);
  console.log(
    [
      `student keys: ${COPIES}-copy class, every ordered pair, ${Math.round((Date.now() - started) / 1000)} s in all`,
      head,
      `|---|${"---|".repeat(COPIES)}`,
      ...lines,
      `off the diagonal: the ${ATTEMPTS.length} tries (${ATTEMPTS.map((a) => a.name).join(", ")}) each 403, both copies' rows unchanged;`,
      "on it: lists only its own VM, power off, power on and restore succeed, `vplatform student reset` puts back its copy alone",
    ].join("\n"),
  );
  await emulator?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("each copy's key reaches its own copy and nothing else", () => {
  test(`up of a ${COPIES}-copy class through vplatform env; the roster gives each copy's key and each VM's console link`, async () => {
    const up = await vplatform(["env", "up", "class.yaml", "--stack", "term"]);
    expect(up).toMatchObject({ code: 0, stderr: expect.not.stringMatching(/error/i) });
    const roster = await vplatform(["env", "roster", "class.yaml", "--stack", "term", "--json", "--show-secrets"]);
    expect(roster).toMatchObject({ code: 0 });
    const listed = JSON.parse(roster.stdout).copies as {
      number: number;
      apiKey: string;
      vnet: string;
      vms: { vmKey: string; machineKey: string; console: string }[];
    }[];
    copies = await Promise.all(
      listed.map(async (c) => {
        const [vm] = c.vms;
        const [vnet] = await admin(`vnets?filter=${q(`name eq '${c.vnet}'`)}&fields=$key`);
        const [record] = await admin(`machine_snapshots?filter=${q(`machine eq ${vm.machineKey}`)}&fields=$key,snap_machine`);
        const [snapshotVm] = await admin(`vms?filter=${q(`machine eq ${record.snap_machine}`)}&fields=$key`);
        const [drive] = await admin(`machine_drives?filter=${q(`machine eq ${vm.machineKey}`)}&fields=$key`);
        const [nic] = await admin(`machine_nics?filter=${q(`machine eq ${vm.machineKey}`)}&fields=$key`);
        return {
          n: c.number,
          key: c.apiKey,
          vm: vm.vmKey,
          machine: vm.machineKey,
          vnet: String(vnet.$key),
          console: vm.console,
          snapshotVm: String(snapshotVm.$key),
          snapshotRecord: String(record.$key),
          drive: String(drive.$key),
          nic: String(nic.$key),
        };
      }),
    );
    expect(copies.map((c) => c.n)).toEqual([1, 2, 3, 4]);
    for (const c of copies) {
      expect(c.key).toMatch(/^vpk_/);
      expect(c.console).toBe(`${emulator.url}/#/vm-console/${c.vm}`);
    }
  });

  test("for every ordered pair (i, j): copy i's key lists its own VM only, and every change it tries on copy j answers 403, changing nothing", async () => {
    for (const i of copies) {
      // Lists: its own VM, and its own VM's snapshot (the VM at one moment); nothing of another copy.
      const listed = JSON.parse((await call("GET", "vms?fields=$key,is_snapshot,parent_vm", i.key)).text) as {
        $key: number;
        is_snapshot: boolean;
        parent_vm: number | null;
      }[];
      expect(listed.filter((v) => !v.is_snapshot).map((v) => String(v.$key))).toEqual([i.vm]);
      expect(listed.filter((v) => v.is_snapshot).map((v) => [String(v.$key), String(v.parent_vm)])).toEqual([[i.snapshotVm, i.vm]]);
      for (const j of copies) {
        if (j === i) continue;
        const before = [await rowsOf(j), await rowsOf(i)];
        const answers: Record<string, number> = {};
        for (const a of ATTEMPTS) answers[a.name] = (await a.send(i, j)).status;
        expect({ key: i.n, copy: j.n, answers }).toEqual({
          key: i.n,
          copy: j.n,
          answers: Object.fromEntries(ATTEMPTS.map((a) => [a.name, 403])),
        });
        expect([await rowsOf(j), await rowsOf(i)]).toEqual(before);
        matrix[i.n - 1][j.n - 1] = `403 ×${ATTEMPTS.length}, unchanged`;
      }
    }
  });

  test("on its own VM each key powers off, powers on and restores it to its snapshot", async () => {
    for (const c of copies) {
      expect((await call("POST", "vm_actions", c.key, { vm: c.vm, action: "poweroff" })).status).toBe(201);
      await until(c, "stopped");
      expect((await call("POST", "vm_actions", c.key, { vm: c.vm, action: "poweron" })).status).toBe(201);
      await until(c, "running");
      expect((await call("POST", "vm_actions", c.key, { vm: c.vm, action: "kill" })).status).toBe(201);
      await until(c, "stopped");
      // Restored and powered on in one action (the restore runs a while: a power-on sent meanwhile is refused, 409).
      const params = { snapshot_id: c.snapshotRecord, poweron: true };
      expect((await call("POST", "vm_actions", c.key, { vm: c.vm, action: "restore", params })).status).toBe(201);
      await until(c, "running");
      matrix[c.n - 1][c.n - 1] = "own: list, power off/on, restore ✓";
    }
  });

  test("vplatform student reset with copy i's key puts copy i back to its start, and no other copy", async () => {
    const drive = (c: Copy) => `/_emulator/drives/${c.drive}/content`;
    const hook = async (hookPath: string, method = "GET", body?: unknown) => {
      const { default: got } = await import("got");
      return got(`${emulator.url}${hookPath}`, {
        method: method as "GET",
        headers: { authorization: `Bearer ${emulator.apiKey}` },
        https: { certificateAuthority: emulator.caCert },
        ...(body === undefined ? {} : { json: body }),
      }).json<{ content: string }>();
    };
    const atStart = await Promise.all(copies.map(async (c) => (await hook(drive(c))).content));
    // Every copy's session: the guest writes its disk, its RAM was changed.
    for (const c of copies) {
      await hook(drive(c), "PUT", { content: `session of copy ${c.n}` });
      await admin(`vms/${c.vm}`, "PUT", { ram: 2048 });
    }
    const state = async (c: Copy) => ({
      content: (await hook(drive(c))).content,
      ram: (await admin(`vms/${c.vm}?fields=ram`)).ram,
    });
    expect(GUIDED_RESET).toBe("student reset --endpoint https://lab.example:8443");
    const args = GUIDED_RESET!.replace("https://lab.example:8443", emulator.url).split(" ");
    for (const i of copies) {
      const reset = await vplatform(args, { VPLATFORM_API_KEY: i.key });
      expect(reset).toMatchObject({ code: 0 });
      expect(reset.stdout.trim()).toBe(`term-0${i.n}-lab: killed, restored to snapshot ${i.snapshotRecord}, running`);
      for (const c of copies) {
        const expected = c.n <= i.n ? { content: atStart[c.n - 1], ram: 1024 } : { content: `session of copy ${c.n}`, ram: 2048 };
        expect({ copy: c.n, ...(await state(c)) }).toEqual({ copy: c.n, ...expected });
      }
      matrix[i.n - 1][i.n - 1] += "; student reset: its copy alone ✓";
    }
  });
});
