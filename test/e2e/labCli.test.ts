// `vplatform env reset` and `roster` from a stack's `labs` output (the class-lab contract's shape, exported here
// by an inline program, with each API key's secret a Pulumi secret) under the real engine's state, against the
// emulator: secrets stay [secret] unless --show-secrets, the roster reads power and IPs live, a reset of one copy
// puts its VMs' drives back to the snapshot's content marker and runs them again, leaving the other copy alone.
import * as pulumi from "@pulumi/pulumi";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { parseCliArgs } from "../../env/cli-args";
import { engineEnv } from "../../env/local-stack";
import { EXIT, runEnvironmentCommand } from "../../env/run-command";
import { type E2eContext, collect, startE2e } from "./harness";

jest.setTimeout(240_000);
let emulator: RunningEmulator;
let ctx: E2eContext;

interface Vm {
  id: string;
  machineKey: string;
  name: string;
  snapshot: string;
  drive: string;
}

async function call(method: string, apiPath: string, body?: unknown): Promise<any> {
  const r = await ctx.api(method, apiPath, body);
  if (r.status >= 400) throw new Error(`${method} ${apiPath}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}
async function fetchHook(method: string, path: string, body?: unknown): Promise<any> {
  const { default: got } = await import("got");
  return got(`${emulator.url}/_emulator${path}`, {
    method: method as "GET",
    headers: { authorization: `Bearer ${emulator.apiKey}` },
    https: { certificateAuthority: emulator.caCert },
    ...(body === undefined ? {} : { json: body }),
  }).json();
}
const status = async (machine: string) => (await call("GET", `/v4/machine_status/${machine}?fields=status`)).status;
async function until(machine: string, wanted: string) {
  for (let i = 0; i < 300 && (await status(machine)) !== wanted; i++) await new Promise((r) => setTimeout(r, 20));
}

/** A running VM with a drive whose content was "start" when its snapshot was taken. */
async function labVm(name: string, vnet: string, ip: string): Promise<Vm> {
  const created = await call("POST", "/v4/vms", { name });
  const machineKey = String(created.response.machine);
  // The address a NIC carries (the guest agent reports none here): the roster's first IP.
  await call("POST", "/v4/machine_nics", { machine: machineKey, vnet, ipaddress: ip });
  const drive = String((await call("POST", "/v4/machine_drives", { machine: machineKey, media: "disk", disksize: 1024 ** 3 })).$key);
  await fetchHook("PUT", `/drives/${drive}/content`, { content: "start" });
  const snap = await call("POST", "/v4/vm_actions", { vm: created.$key, action: "snapshot", params: { name: "start" } });
  await until(machineKey, "stopped");
  await call("POST", "/v4/vm_actions", { vm: created.$key, action: "poweron", params: {} });
  await until(machineKey, "running");
  return { id: String(created.$key), machineKey, name, snapshot: String(snap.response.vmkey), drive };
}

const copies: { n: number; vms: Record<string, Vm> }[] = [];

async function cli(...argv: string[]) {
  const parsed = parseCliArgs(argv);
  if (!parsed.ok) throw new Error(parsed.message);
  const out: string[] = [];
  const err: string[] = [];
  const env = {
    ...process.env,
    ...engineEnv(ctx.stateDir),
    VPLATFORM_ENDPOINT: emulator.url,
    VPLATFORM_API_KEY: emulator.apiKey,
    VPLATFORM_CA_CERT: emulator.caCert,
  };
  const code = await runEnvironmentCommand(parsed.args, { stdout: (s) => out.push(s), stderr: (s) => err.push(s) }, env);
  return { code, stdout: out.join(""), stderr: err.join("") };
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, timeScale: 0.01, quiet: true });
  const program = async () => ({
    labs: {
      course: {
        copies: Object.fromEntries(
          copies.map(({ n, vms }) => [
            String(n),
            {
              number: n,
              name: `course-${n}`,
              vnet: { id: String(n), name: `course-${n}`, network: `10.100.${n}.0/24` },
              user: { id: String(n), name: `course-${n}` },
              apiKey: { id: String(n), secret: pulumi.secret(`vpk_${n}_classified`) },
              vms: Object.fromEntries(
                Object.entries(vms).map(([t, v]) => [
                  t,
                  { id: v.id, machineKey: v.machineKey, name: v.name, powerState: "running", snapshot: v.snapshot },
                ]),
              ),
            },
          ]),
        ),
      },
    },
  });
  ctx = await startE2e("labcli", program, emulator);
  const vnet = String((await call("POST", "/v4/vnets", { name: "class", network: "10.100.0.0/16" })).$key);
  for (const n of [1, 2])
    copies.push({
      n,
      vms: { web: await labVm(`course-${n}-web`, vnet, `10.100.${n}.10`), db: await labVm(`course-${n}-db`, vnet, `10.100.${n}.20`) },
    });
  await ctx.stack.up(collect(ctx));
});
afterAll(() => ctx?.dispose());

describe("roster", () => {
  test("Markdown by default: every copy, its VMs running; the API keys [secret]", async () => {
    await ctx.resetRequestCounts();
    const r = await cli("roster", "class.yaml", "--stack", "e2e", "--project", "e2e-labcli");
    expect(r).toMatchObject({ code: EXIT.ok });
    // One list request per table for all the VMs.
    expect((await ctx.requestCounts()).entries.map((e) => `${e.method} ${e.table} ${e.count}`).sort()).toEqual([
      "GET machine_nics 1",
      "GET machine_status 1",
    ]);
    expect(r.stdout).toContain("| # | Copy | User | API key | Network | VMs |");
    expect(r.stdout).toContain(`web: course-2-web (VM ${copies[1].vms.web.id}), running, 10.100.2.10`);
    expect(r.stdout).toContain("`[secret]`");
    expect(r.stdout + r.stderr).not.toContain("classified");
  });

  test("--json --show-secrets: the secrets in clear", async () => {
    const r = await cli("roster", "class.yaml", "--stack", "e2e", "--project", "e2e-labcli", "--json", "--show-secrets");
    expect(JSON.parse(r.stdout).copies.map((c: { apiKey: string }) => c.apiKey)).toEqual(["vpk_1_classified", "vpk_2_classified"]);
  });
});

describe("reset", () => {
  test("--copy 2 puts copy 2's drives back to the snapshot's content, running again; copy 1 is left alone", async () => {
    for (const { vms } of copies)
      for (const vm of Object.values(vms)) await fetchHook("PUT", `/drives/${vm.drive}/content`, { content: "session 1" });
    await ctx.resetRequestCounts();
    const r = await cli("reset", "class.yaml", "--stack", "e2e", "--project", "e2e-labcli", "--copy", "2");
    expect(r.code).toBe(EXIT.ok);
    // The floor: a kill and a restore (that powers on) per running VM; the status and hardware reads shared by all the VMs.
    const sent = (await ctx.requestCounts()).entries;
    const count = (method: string, table: string) =>
      sent.filter((e) => e.method === method && e.table === table).reduce((n, e) => n + e.count, 0);
    expect(count("POST", "vm_actions")).toBe(2 * 2);
    expect(count("GET", "machine_status")).toBeLessThanOrEqual(6);
    // The snapshots' machines, the VMs' and snapshots' NICs and devices (what a reset puts back): read together.
    const hardware = count("GET", "vms") + count("GET", "machine_nics") + count("GET", "machine_devices");
    for (const table of ["vms", "machine_nics", "machine_devices"]) expect(count("GET", table)).toBeLessThanOrEqual(2);
    expect(sent.reduce((n, e) => n + e.count, 0)).toBe(count("POST", "vm_actions") + count("GET", "machine_status") + hardware);
    expect(r.stdout).toBe(
      [
        // In the output's order (the engine keeps an object's keys sorted).
        `course-2 db (course-2-db): killed, restored to snapshot ${copies[1].vms.db.snapshot}, running`,
        `course-2 web (course-2-web): killed, restored to snapshot ${copies[1].vms.web.snapshot}, running`,
        "",
      ].join("\n"),
    );
    const contents = async (n: number) =>
      Promise.all(Object.values(copies[n - 1].vms).map(async (vm) => (await fetchHook("GET", `/drives/${vm.drive}/content`)).content));
    expect(await contents(2)).toEqual(["start", "start"]);
    expect(await contents(1)).toEqual(["session 1", "session 1"]);
    for (const vm of Object.values(copies[1].vms)) expect(await status(vm.machineKey)).toBe("running");
  });

  test("--copy 3 of a 2-copy lab exits 3 naming the copies there are, sending nothing", async () => {
    await ctx.resetRequestCounts();
    const r = await cli("reset", "class.yaml", "--stack", "e2e", "--project", "e2e-labcli", "--copy", "3");
    expect(r.code).toBe(EXIT.invalid);
    expect(r.stderr).toContain("--copy 3: lab 'course' has copies 1 to 2; give one of them, or --all");
    expect((await ctx.requestCounts()).total).toBe(0);
  });

  test("a stack that does not exist exits 3 naming --stack, and is not created", async () => {
    const r = await cli("reset", "class.yaml", "--stack", "nope", "--project", "e2e-labcli", "--all");
    expect(r.code).toBe(EXIT.invalid);
    expect(r.stderr).toMatch(/error: --stack nope: no such stack of project 'e2e-labcli' in file:\/\/\S+: nothing was run/);
    expect((await ctx.stack.workspace.listStacks()).map((s) => s.name)).toEqual(["e2e"]);
  });
});
