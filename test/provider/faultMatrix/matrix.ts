/**
 * The fault matrix: every resource kind × create/update/delete × fault, each
 * cell run like the engine runs two `up`s (the first under the fault, the
 * second after it cleared) against the provider in-process. A cell is clean
 * when no row of the cell is left that the state does not hold (no orphan),
 * there is at most one (no duplicate), and a refresh then a preview show no
 * change. The same cells run under the real engine in test/e2e/faultMatrix.test.ts.
 *
 * The default run (CI) takes a fixed sample: one cell in SAMPLE_STRIDE, the
 * kind and fault indexes shifted per op, so every op, every fault and every
 * resource kind is still run at least once (each kind under 2 of the 8 faults,
 * each fault on 4 kinds, per op: 32 of 128 cells). `npm run test:faults`
 * (VPLATFORM_FAULT_MATRIX=full) runs all 384 cells.
 */
import { type Lab, providers } from "../harness";
import { FAULT_NAMES, faultSpecs, formatMatrix, type Op } from "./faults";

export const REQUEST_TIMEOUT_MS = 1_000;
const FULL = process.env.VPLATFORM_FAULT_MATRIX === "full";
const OPS: Op[] = ["create", "update", "delete"];
const SAMPLE_STRIDE = 4;
/** Seconds: how long one create/delete may retry (the resources' `timeouts`). */
const LIMITS = { create: 30, delete: 30, powerChange: 30, snapshot: 30, restore: 30, hotplug: 30 };
const FAULTS = faultSpecs(REQUEST_TIMEOUT_MS);

type Row = Record<string, any>;

export interface Cell {
  lab: Lab;
  /** Unique per cell: names and the marker derive from it. */
  tag: string;
}

/** A resource kind in the matrix: what to declare, what each op's fault hits, and where its rows live. */
export interface Kind {
  name: string;
  provider: () => any;
  /** The declaration (and what it needs made first, fault-free). */
  declare(c: Cell): Promise<Row>;
  /** The declaration changed in place, for the update cells. */
  changed(inputs: Row): Row;
  /** The method and table each op's fault hits. */
  target: Record<Op, { method: string; table: string }>;
  /** Keys of the rows of this cell on the platform. */
  rows(c: Cell, inputs: Row): Promise<string[]>;
}

const keysOf = (rows: { $key: unknown }[]) => rows.map((r) => String(r.$key));
const q = (filter: string) => encodeURIComponent(filter);

async function makeVm(c: Cell, suffix: string, extra: Row = {}): Promise<{ id: string; machineKey: string }> {
  const p = providers.VirtualMachine();
  const inputs = (await p.check({}, { name: `${c.tag}-${suffix}`, powerState: "stopped", ...extra })).inputs;
  const r = await p.create(inputs);
  return { id: r.id, machineKey: r.outs.machineKey };
}

const vmRows = (c: Cell, inputs: Row) =>
  c.lab.api("GET", `vms?filter=${q(`name eq '${inputs.name}' and is_snapshot eq false`)}&fields=$key`).then(keysOf);

const vmKind = (name: string, running: boolean): Kind => ({
  name,
  provider: providers.VirtualMachine,
  declare: async (c) => ({ name: `${c.tag}-vm`, ram: 1024, powerState: running ? "running" : "stopped", timeouts: LIMITS }),
  changed: (i) => ({ ...i, ram: 2048 }),
  // A running VM's faults hit its power actions: the power-on of the create, the power cycle of the update, the stop before the delete.
  target: running
    ? {
        create: { method: "POST", table: "vm_actions" },
        update: { method: "POST", table: "vm_actions" },
        delete: { method: "POST", table: "vm_actions" },
      }
    : { create: { method: "POST", table: "vms" }, update: { method: "PUT", table: "vms" }, delete: { method: "DELETE", table: "vms" } },
  rows: vmRows,
});

function hardwareKind(
  name: string,
  table: string,
  named: boolean,
  declare: (c: Cell, machine: string) => Promise<Row>,
  changed: (i: Row) => Row,
  provider: () => any,
): Kind {
  return {
    name,
    provider,
    declare: async (c) => {
      const vm = await makeVm(c, "host");
      return { ...(await declare(c, vm.machineKey)), ...(named ? { name: "hw0" } : {}), timeouts: LIMITS };
    },
    changed,
    target: { create: { method: "POST", table }, update: { method: "PUT", table }, delete: { method: "DELETE", table } },
    rows: (c, inputs) => c.lab.api("GET", `${table}?filter=${q(`machine eq ${inputs.machine}`)}&fields=$key`).then(keysOf),
  };
}

const GPU = "0f3e6a52-6d1b-4b8e-9a51-a100a100a001";

async function vnetFor(c: Cell): Promise<string> {
  const p = providers.Vnet();
  return (await p.create((await p.check({}, { name: `${c.tag}-net`, network: "10.77.0.0/24" })).inputs)).id;
}

const drive = (_c: Cell, machine: string) => Promise.resolve({ machine, media: "disk", disksize: 1024 ** 3 });
const nic = async (c: Cell, machine: string) => ({ machine, vnet: await vnetFor(c) });
const device = (_c: Cell, machine: string) => Promise.resolve({ machine, resourceGroup: GPU, settingsArgs: {} });

/** A row of one table: its faults hit that table; a row named by the cell is found by its name (else by its task). */
function automationKind(name: string, table: string, provider: () => any, declare: Kind["declare"], changed: Kind["changed"]): Kind {
  return {
    name,
    provider,
    declare,
    changed,
    target: { create: { method: "POST", table }, update: { method: "PUT", table }, delete: { method: "DELETE", table } },
    rows: (c, inputs) =>
      c.lab
        .api("GET", `${table}?filter=${q(inputs.name ? `name eq '${inputs.name}'` : `task eq ${inputs.task}`)}&fields=$key`)
        .then(keysOf),
  };
}

/** Made fault-free before the cell: a webhook, and a task sending through it. */
async function made(token: "Webhook" | "Task" | "User", inputs: Row): Promise<string> {
  const p = providers[token]();
  return (await p.create((await p.check({}, inputs)).inputs)).id;
}
const webhookOf = (c: Cell) => made("Webhook", { name: `${c.tag}-support-hook`, url: "https://127.0.0.1:9/" });
const taskOf = async (c: Cell) => made("Task", { name: `${c.tag}-support-task`, webhook: await webhookOf(c) });
const userOf = (c: Cell, name: string) => made("User", { name: `${c.tag}-${name}`, role: "none" });

export const KINDS: Kind[] = [
  vmKind("VM", false),
  vmKind("running VM", true),
  rowKind(
    "vnet",
    "vnets",
    providers.Vnet,
    (c) => ({ name: `${c.tag}-vnet`, network: "10.88.0.0/24", timeouts: LIMITS }),
    (i) => ({ ...i, description: "changed" }),
  ),
  hardwareKind("drive", "machine_drives", true, drive, (i) => ({ ...i, disksize: 2 * 1024 ** 3 }), providers.Drive),
  hardwareKind("unnamed drive", "machine_drives", false, drive, (i) => ({ ...i, disksize: 2 * 1024 ** 3 }), providers.Drive),
  hardwareKind("NIC", "machine_nics", true, nic, (i) => ({ ...i, enabled: false }), providers.Nic),
  hardwareKind("unnamed NIC", "machine_nics", false, nic, (i) => ({ ...i, enabled: false }), providers.Nic),
  hardwareKind("device", "machine_devices", true, device, (i) => ({ ...i, enabled: false }), providers.Device),
  hardwareKind("unnamed device", "machine_devices", false, device, (i) => ({ ...i, enabled: false }), providers.Device),
  {
    name: "snapshot",
    provider: providers.VmSnapshot,
    declare: async (c) => ({ vm: (await makeVm(c, "src")).id, name: `${c.tag}-snap`, timeouts: LIMITS }),
    changed: (i) => ({ ...i, restoreTrigger: "1" }),
    target: {
      create: { method: "POST", table: "vm_actions" },
      update: { method: "POST", table: "vm_actions" },
      delete: { method: "DELETE", table: "vms" },
    },
    rows: (c, inputs) => c.lab.api("GET", `vms?filter=${q(`is_snapshot eq true and parent_vm eq ${inputs.vm}`)}&fields=$key`).then(keysOf),
  },
  automationKind(
    "webhook",
    "webhook_urls",
    providers.Webhook,
    async (c) => ({ name: `${c.tag}-hook`, url: "https://127.0.0.1:9/", timeouts: LIMITS }),
    (i) => ({ ...i, description: "changed" }),
  ),
  automationKind(
    "task",
    "tasks",
    providers.Task,
    async (c) => ({ name: `${c.tag}-task`, webhook: await webhookOf(c), timeouts: LIMITS }),
    (i) => ({ ...i, message: "changed ${NAME}" }),
  ),
  automationKind(
    "event trigger",
    "task_events",
    providers.EventTrigger,
    async (c) => ({ task: await taskOf(c), type: "alarms", event: "raised", timeouts: LIMITS }),
    (i) => ({ ...i, event: "lowered" }),
  ),
  automationKind(
    "schedule",
    "task_schedules",
    providers.Schedule,
    async (c) => ({ name: `${c.tag}-schedule`, repeatEvery: "week", timeouts: LIMITS }),
    (i) => ({ ...i, description: "changed" }),
  ),
  rowKind(
    "user",
    "users",
    providers.User,
    (c) => ({ name: `${c.tag}-user`, timeouts: LIMITS }),
    (i) => ({ ...i, displayName: "changed" }),
  ),
  rowKind(
    "group",
    "groups",
    providers.Group,
    (c) => ({ name: `${c.tag}-group`, timeouts: LIMITS }),
    (i) => ({ ...i, description: "changed" }),
  ),
  {
    name: "permission",
    provider: providers.Permission,
    declare: async (c) => ({
      user: await userOf(c, "grantee"),
      table: "vms",
      row: (await makeVm(c, "granted")).id,
      read: true,
      timeouts: LIMITS,
    }),
    changed: (i) => ({ ...i, modify: true }),
    target: {
      create: { method: "POST", table: "permissions" },
      update: { method: "PUT", table: "permissions" },
      delete: { method: "DELETE", table: "permissions" },
    },
    rows: async (c, inputs) => {
      const { identity } = await c.lab.api("GET", `users/${inputs.user}?fields=identity`);
      return keysOf(await c.lab.api("GET", `permissions?filter=${q(`identity eq ${identity}`)}&fields=$key`));
    },
  },
  // The group's members are rows of their own: a create's faults hit adding one, an update's removing one.
  {
    name: "group members",
    provider: providers.Group,
    declare: async (c) => ({ name: `${c.tag}-members`, users: [await userOf(c, "m1"), await userOf(c, "m2")], timeouts: LIMITS }),
    changed: (i) => ({ ...i, users: i.users.slice(0, 1) }),
    target: {
      create: { method: "POST", table: "members" },
      update: { method: "DELETE", table: "members" },
      delete: { method: "DELETE", table: "groups" },
    },
    // The group's rows, and a word for any member held twice or not declared (the cell then fails).
    rows: async (c, inputs) => {
      const groups = keysOf(await c.lab.api("GET", `groups?filter=${q(`name eq '${inputs.name}'`)}&fields=$key`));
      const members = (
        await Promise.all(groups.map((g) => c.lab.api("GET", `members?filter=${q(`parent_group eq ${g}`)}&fields=member`)))
      ).flat() as { member: string }[];
      const stray = members.map((m) => m.member).filter((m, i, all) => all.indexOf(m) !== i || !inputs.users.includes(m.split("/").pop()));
      return [...groups, ...stray.map((m) => `stray member ${m}`)];
    },
  },
  // A key whose create answer is lost is deleted and made again (its secret was in that answer): still one row.
  rowKind(
    "API key",
    "user_api_keys",
    providers.ApiKey,
    (c) => ({ name: `${c.tag}-key`, timeouts: LIMITS }),
    (i) => ({ ...i, description: "changed" }),
  ),
];

/** A kind whose rows live in one table, found by their name (vnets, users, API keys). */
function rowKind(name: string, table: string, provider: () => any, declare: (c: Cell) => Row, changed: (i: Row) => Row): Kind {
  return automationKind(name, table, provider, async (c) => declare(c), changed);
}

/** What the engine's state holds for the resource. */
interface State {
  id?: string;
  outs?: Row;
  /** Recorded with initialization errors (partial create): the next up updates it whatever the diff says. */
  partial?: boolean;
}

/** One `up` of one resource, as the engine runs it: check, then create, or diff and update. */
async function up(p: any, news: Row, state: State): Promise<{ state: State; error?: Error }> {
  const checked = await p.check(state.outs ?? {}, news);
  if (checked.failures?.length) throw new Error(`check failed: ${JSON.stringify(checked.failures)}`);
  const inputs = checked.inputs;
  if (!state.id) {
    try {
      const r = await p.create(inputs);
      return { state: { id: r.id, outs: r.outs } };
    } catch (e: any) {
      if (e?.name === "PartialCreateError") return { state: { id: e.id, outs: e.properties, partial: true }, error: e };
      return { state, error: e };
    }
  }
  const d = await p.diff(state.id, state.outs, inputs);
  if (d.replaces?.length) throw new Error(`unexpected replacement of ${JSON.stringify(d.replaces)}`);
  if (!d.changes && !state.partial) return { state };
  try {
    return { state: { id: state.id, outs: (await p.update(state.id, state.outs, inputs)).outs } };
  } catch (e: any) {
    return { state, error: e };
  }
}

async function destroy(p: any, state: State): Promise<{ state: State; error?: Error }> {
  if (!state.id) return { state };
  try {
    await p.delete(state.id, state.outs);
    return { state: {} };
  } catch (e: any) {
    return { state, error: e };
  }
}

export interface CellResult {
  firstError?: string;
  /** Rows of the cell on the platform after the second run. */
  rows: string[];
  state: State;
  /** The refresh's read: present, and the preview after it shows no change. */
  refreshClean: boolean;
}

/** Runs one cell: arrange fault-free, first run under the fault, second run without it, then refresh and preview. */
export async function runCell(lab: Lab, kind: Kind, op: Op, fault: string, tag: string): Promise<CellResult> {
  const c: Cell = { lab, tag };
  const p = kind.provider();
  const declared = { ...(await kind.declare(c)), __marker: `m${tag}` };
  let state: State = {};
  if (op !== "create") {
    const made = await up(p, declared, state);
    if (made.error) throw made.error;
    state = made.state;
  }
  const wanted = op === "update" ? kind.changed(declared) : declared;
  const run = () => (op === "delete" ? destroy(p, state) : up(p, wanted, state));
  await lab.hook("POST", "/_emulator/faults", { ...kind.target[op], ...FAULTS[fault]() });
  let first: { state: State; error?: Error };
  try {
    first = await run();
  } finally {
    await lab.hook("DELETE", "/_emulator/faults");
  }
  state = first.state;
  const second = await run();
  if (second.error) throw new Error(`the second run failed: ${second.error.message} (first: ${first.error?.message ?? "ok"})`);
  state = second.state;
  const rows = await kind.rows(c, declared);
  let refreshClean = true;
  if (state.id) {
    const read = await p.read(state.id, state.outs);
    const inputs = (await p.check(read.props, wanted)).inputs;
    refreshClean = read.id === state.id && (await p.diff(state.id, read.props, inputs)).changes === false;
  }
  return { firstError: first.error?.message, rows, state, refreshClean };
}

/** Whether the default run takes the cell: (kind − fault + op) ≡ 0 (mod SAMPLE_STRIDE). */
function sampled(op: Op, kindIndex: number, faultIndex: number): boolean {
  return (kindIndex - faultIndex + OPS.indexOf(op)) % SAMPLE_STRIDE === 0; // -4 % 4 is -0, which === 0
}

/** The cells one op runs: all of them in the full form, else the sample. */
function cellsOf(op: Op): { kind: Kind; kindIndex: number; fault: string; faultIndex: number }[] {
  return KINDS.flatMap((kind, kindIndex) =>
    Object.keys(FAULTS)
      .map((fault, faultIndex) => ({ kind, kindIndex, fault, faultIndex }))
      .filter((c) => FULL || sampled(op, c.kindIndex, c.faultIndex)),
  );
}

/** The jest suite of one op: a test per cell, and the matrix printed at the end. */
export function defineMatrixSuite(op: Op, startLab: (config: Record<string, string>) => Promise<Lab>): void {
  let lab: Lab;
  const results = new Map<string, boolean>();
  beforeAll(async () => {
    lab = await startLab({ "vplatform:requestTimeoutMs": String(REQUEST_TIMEOUT_MS) });
  });
  afterAll(async () => {
    process.stdout.write(
      `\nfault matrix, in-process:\n${formatMatrix(
        op,
        KINDS.map((k) => k.name),
        results,
      )}\n`,
    );
    await lab.close();
  });
  const cells = cellsOf(op);
  test("the cells run cover every resource kind and every fault", () => {
    expect(new Set(cells.map((c) => c.kind.name))).toEqual(new Set(KINDS.map((k) => k.name)));
    expect(new Set(cells.map((c) => c.fault))).toEqual(new Set(FAULT_NAMES));
  });
  describe.each(KINDS.map((k) => [k.name, cells.filter((c) => c.kind === k)] as const))(
    `${op} of a %s under a fault, then a second up`,
    (kindName, ofKind) => {
      test.each(ofKind.map((c) => [c.fault, c] as const))(
        "%s: no orphan, no duplicate, refresh and preview clean",
        async (fault, { kind, kindIndex, faultIndex }) => {
          const cell = `${kindName}/${fault}`;
          results.set(cell, false);
          const r = await runCell(lab, kind, op, fault, `${op}-${kindIndex}-${faultIndex}`);
          expect(r.rows).toEqual(op === "delete" ? [] : [r.state.id]);
          expect(r.refreshClean).toBe(true);
          results.set(cell, true);
        },
        60_000,
      );
    },
  );
}
