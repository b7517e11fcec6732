/**
 * The fault matrix under the real engine. One engine run covers every resource
 * kind at once: a stack holds each kind (with the VMs and vnet they need, made
 * first), the fault is aimed at each kind's own requests of the operation under
 * test (the emulator's `where`: its name, machine, action or row key), then the
 * faults are cleared and `up` runs again. Per kind: its rows on the platform are
 * exactly the state's (no orphan, no duplicate, no entry without a row), a
 * refresh leaves its outputs as they were and a preview plans nothing for it.
 * So the whole matrix is op × fault engine runs, not kind × op × fault.
 */
import type { EngineEvent, PulumiFn } from "@pulumi/pulumi/automation";
import { faultSpecs, type Op } from "../../provider/faultMatrix/faults";
import { collect, type E2eContext, errorLines, startE2e } from "../harness";

export const REQUEST_TIMEOUT_MS = 1_500;
export const FAULTS = faultSpecs(REQUEST_TIMEOUT_MS);
/** Seconds: how long one create/delete may retry (the resources' `timeouts`). */
const LIMITS = { create: 60, delete: 60, powerChange: 60, snapshot: 60, restore: 60, hotplug: 60 };
const GPU = "0f3e6a52-6d1b-4b8e-9a51-a100a100a001";
const P = "fm"; // the prefix of every row the program names

type Row = Record<string, unknown>;
/** Keys the support stage made: hosts' machine keys by kind, the snapshot source VM. */
type Support = { machines: Record<string, string>; srcVm: string; net: string };
/** What a kind's fault may aim at: the support keys and, once made, its own row key. */
type Known = Support & { id?: string };

interface EngineKind {
  name: string;
  /** Logical name in the program (also the kind's host VM suffix for hardware). */
  logical: string;
  /** Declares the resource; `changed` for the update runs. */
  declare(vp: any, s: { machine: any; net: any; src: any }, changed: boolean): object;
  /** The emulator fault's method, table and `where` for each op. */
  target(op: Op, k: Known): { method: string; table: string; where: Row };
  /** Keys of this kind's rows on the platform. */
  rows(api: E2eContext["api"], k: Known): Promise<string[]>;
  /** Hardware sits on a host VM of its own, made in the support stage. */
  onHost?: boolean;
}

const q = (filter: string) => encodeURIComponent(filter);
const keysOf = async (r: Promise<{ body: any }>) => ((await r).body as { $key: unknown }[]).map((x) => String(x.$key));
const byName =
  (table: string, name: string, extra = "") =>
  (api: E2eContext["api"]) =>
    keysOf(api("GET", `/v4/${table}?filter=${q(`name eq '${name}'${extra}`)}&fields=$key`));
const rowKey = (method: string, table: string) => (k: Known) => ({ method, table, where: { $key: k.id! } });

const vmKind = (name: string, logical: string, running: boolean): EngineKind => ({
  name,
  logical,
  declare: (vp, _s, changed) =>
    new vp.VirtualMachine(logical, {
      name: `${P}-${logical}`,
      ram: changed ? 2048 : 1024,
      powerState: running ? "running" : "stopped",
      timeouts: LIMITS,
    }),
  // A running VM's faults hit its power actions: the power-on of the create, the power cycle of the update, the stop before the delete.
  target: running
    ? (op, k) => ({ method: "POST", table: "vm_actions", where: op === "create" ? { action: "poweron" } : { vm: k.id! } })
    : (op, k) =>
        op === "create"
          ? { method: "POST", table: "vms", where: { name: `${P}-${logical}` } }
          : rowKey(op === "update" ? "PUT" : "DELETE", "vms")(k),
  rows: (api) => byName("vms", `${P}-${logical}`, " and is_snapshot eq false")(api),
});

function hardwareKind(name: string, logical: string, table: string, type: "Drive" | "Nic" | "Device", named: boolean): EngineKind {
  const base = (s: { machine: any; net: any }) =>
    type === "Drive"
      ? { machine: s.machine, media: "disk", disksize: 1024 ** 3 }
      : type === "Nic"
        ? { machine: s.machine, vnet: s.net.id }
        : { machine: s.machine, resourceGroup: GPU, settingsArgs: {} };
  const change = (inputs: Row): Row => (type === "Drive" ? { ...inputs, disksize: 2 * 1024 ** 3 } : { ...inputs, enabled: false });
  return {
    name,
    logical,
    onHost: true,
    declare: (vp, s, changed) => {
      const inputs = { ...base(s), ...(named ? { name: "hw0" } : {}), timeouts: LIMITS };
      return new vp[type](logical, changed ? change(inputs) : inputs);
    },
    target: (op, k) =>
      op === "create"
        ? { method: "POST", table, where: { machine: k.machines[logical] } }
        : rowKey(op === "update" ? "PUT" : "DELETE", table)(k),
    rows: (api, k) => keysOf(api("GET", `/v4/${table}?filter=${q(`machine eq ${k.machines[logical]}`)}&fields=$key`)),
  };
}

/** A webhook the program sends nowhere (port 9 answers nothing; no event runs its tasks here). */
const hookArgs = (name: string, changed = false) => ({
  name: `${P}-${name}`,
  url: "https://127.0.0.1:9/",
  ...(changed ? { description: "changed" } : {}),
  timeouts: LIMITS,
});
/** A task of its own webhook, for the kinds that need one (declared beside them, never under the fault). */
const taskOf = (vp: any, logical: string, changed = false) =>
  new vp.Task(logical, {
    name: `${P}-${logical}`,
    webhook: new vp.Webhook(`${logical}-hook`, hookArgs(`${logical}-hook`)).id,
    ...(changed ? { message: "changed ${NAME}" } : {}),
    timeouts: LIMITS,
  });

/** An automation row: the create's fault is aimed at its POST by `created`, the update's and delete's at its row key. */
const automationKind = (
  name: string,
  logical: string,
  table: string,
  declare: EngineKind["declare"],
  created: Row,
  rows: EngineKind["rows"],
): EngineKind => ({
  name,
  logical,
  declare,
  target: (op, k) => (op === "create" ? { method: "POST", table, where: created } : rowKey(op === "update" ? "PUT" : "DELETE", table)(k)),
  rows,
});

export const ENGINE_KINDS: EngineKind[] = [
  vmKind("VM", "vm", false),
  vmKind("running VM", "runvm", true),
  namedRowKind("vnet", "vnet", "vnets", "Vnet", { description: "changed" }, { network: "10.88.0.0/24" }),
  hardwareKind("drive", "drive", "machine_drives", "Drive", true),
  hardwareKind("unnamed drive", "udrive", "machine_drives", "Drive", false),
  hardwareKind("NIC", "nic", "machine_nics", "Nic", true),
  hardwareKind("unnamed NIC", "unic", "machine_nics", "Nic", false),
  hardwareKind("device", "device", "machine_devices", "Device", true),
  hardwareKind("unnamed device", "udevice", "machine_devices", "Device", false),
  {
    name: "snapshot",
    logical: "snap",
    declare: (vp, s, changed) =>
      new vp.VmSnapshot("snap", { vm: s.src.id, name: `${P}-snap`, ...(changed ? { restoreTrigger: "1" } : {}), timeouts: LIMITS }),
    target: (op, k) =>
      op === "delete"
        ? rowKey("DELETE", "vms")(k)
        : { method: "POST", table: "vm_actions", where: { action: op === "create" ? "snapshot" : "restore" } },
    rows: (api, k) => keysOf(api("GET", `/v4/vms?filter=${q(`is_snapshot eq true and parent_vm eq ${k.srcVm}`)}&fields=$key`)),
  },
  automationKind(
    "webhook",
    "hook",
    "webhook_urls",
    (vp, _s, changed) => new vp.Webhook("hook", hookArgs("hook", changed)),
    { name: `${P}-hook` },
    byName("webhook_urls", `${P}-hook`),
  ),
  automationKind(
    "task",
    "task",
    "tasks",
    (vp, _s, changed) => taskOf(vp, "task", changed),
    { name: `${P}-task` },
    byName("tasks", `${P}-task`),
  ),
  automationKind(
    "event trigger",
    "trigger",
    "task_events",
    (vp, _s, changed) =>
      new vp.EventTrigger("trigger", {
        task: taskOf(vp, "trigger-task").id,
        type: "alarms",
        event: changed ? "lowered" : "raised",
        timeouts: LIMITS,
      }),
    { table: "alarms" },
    (api) => keysOf(api("GET", `/v4/task_events?filter=${q("table eq 'alarms'")}&fields=$key`)),
  ),
  automationKind(
    "schedule",
    "schedule",
    "task_schedules",
    (vp, _s, changed) =>
      new vp.Schedule("schedule", {
        name: `${P}-schedule`,
        repeatEvery: "week",
        ...(changed ? { description: "changed" } : {}),
        timeouts: LIMITS,
      }),
    { name: `${P}-schedule` },
    byName("task_schedules", `${P}-schedule`),
  ),
  namedRowKind("user", "user", "users", "User", { displayName: "changed" }),
  namedRowKind("API key", "apikey", "user_api_keys", "ApiKey", { description: "changed" }),
  namedRowKind("group", "group", "groups", "Group", { description: "changed" }),
  {
    name: "permission",
    logical: "grant",
    declare: (vp, s, changed) =>
      new vp.Permission("grant", {
        user: new vp.User("grantee", { name: `${P}-grantee`, role: "none" }).id,
        table: "vms",
        row: s.src.id,
        read: true,
        ...(changed ? { modify: true } : {}),
        timeouts: LIMITS,
      }),
    target: (op, k) =>
      op === "create"
        ? { method: "POST", table: "permissions", where: { table: "vms" } }
        : rowKey(op === "update" ? "PUT" : "DELETE", "permissions")(k),
    rows: async (api) => {
      const [grantee] = (await api("GET", `/v4/users?filter=${q(`name eq '${P}-grantee'`)}&fields=identity`)).body;
      return grantee ? keysOf(api("GET", `/v4/permissions?filter=${q(`identity eq ${grantee.identity}`)}&fields=$key`)) : [];
    },
  },
  // The group's members are rows of their own (no other kind makes any): a create's faults hit adding one, an update's removing one.
  {
    name: "group members",
    logical: "members",
    declare: (vp, _s, changed) => {
      const users = ["m1", "m2"].map((n) => new vp.User(`member-${n}`, { name: `${P}-member-${n}`, role: "none" }).id);
      return new vp.Group("members", { name: `${P}-members`, users: changed ? users.slice(0, 1) : users, timeouts: LIMITS });
    },
    target: (op, k) =>
      op === "delete" ? rowKey("DELETE", "groups")(k) : { method: op === "create" ? "POST" : "DELETE", table: "members", where: {} },
    // The group's rows, and a word for any member held twice (the kind is then not clean).
    rows: async (api) => {
      const groups = await byName("groups", `${P}-members`)(api);
      const members = (
        await Promise.all(groups.map(async (g) => (await api("GET", `/v4/members?filter=${q(`parent_group eq ${g}`)}&fields=member`)).body))
      ).flat() as { member: string }[];
      const twice = members.map((m) => m.member).filter((m, i, all) => all.indexOf(m) !== i);
      return [...groups, ...twice.map((m) => `member ${m} twice`)];
    },
  },
];

/** A kind whose one row is found by its name (vnets, users, API keys); `change` is its in-place update. */
function namedRowKind(name: string, logical: string, table: string, type: string, change: Row, args: Row = {}): EngineKind {
  const rowName = `${P}-${logical}`;
  return {
    name,
    logical,
    declare: (vp, _s, changed) => new vp[type](logical, { name: rowName, ...args, ...(changed ? change : {}), timeouts: LIMITS }),
    target: (op, k) =>
      op === "create" ? { method: "POST", table, where: { name: rowName } } : rowKey(op === "update" ? "PUT" : "DELETE", table)(k),
    rows: byName(table, rowName),
  };
}

/** What the program declares: the support only, the kinds as first declared, or changed. */
type Stage = "support" | "declared" | "changed";

function programOf(kinds: EngineKind[], stage: () => Stage): PulumiFn {
  return async () => {
    const vp = require("vplatform");
    const net = new vp.Vnet("net", { name: `${P}-net`, network: "10.77.0.0/24" });
    const src = new vp.VirtualMachine("src", { name: `${P}-src`, ram: 1024, powerState: "stopped" });
    const hosts = Object.fromEntries(
      kinds
        .filter((k) => k.onHost)
        .map((k) => [
          k.logical,
          new vp.VirtualMachine(`host-${k.logical}`, { name: `${P}-host-${k.logical}`, ram: 1024, powerState: "stopped" }),
        ]),
    );
    if (stage() !== "support")
      for (const k of kinds) awaitedByNobody(k.declare(vp, { machine: hosts[k.logical]?.machineKey, net, src }, stage() === "changed"));
    return {
      machines: Object.fromEntries(Object.entries(hosts).map(([n, vm]) => [n, (vm as any).machineKey])),
      srcVm: src.id,
      net: net.id,
    };
  };
}

/**
 * The inline program runs in the test's process: with continueOnError the outputs of a resource
 * whose create failed reject, and nobody awaits them (jest would take that for a failure of its own).
 */
function awaitedByNobody(resource: object): void {
  for (const value of Object.values(resource)) {
    if (!value || typeof value.promise !== "function") continue;
    for (const p of [value.promise(), value.isKnown, value.isSecret, value.allResources?.()]) p?.catch(() => undefined);
  }
}

export interface KindResult {
  clean: boolean;
  /** Why not clean, or what the first run said. */
  detail: string;
}

type StateEntry = { urn: string; type: string; id?: string; outputs?: Row };
const logicalOf = (urn: string) => urn.slice(urn.lastIndexOf("::") + 2);

/** One engine run of the matrix: every kind under `fault` for `op`, then a second up, refresh and preview. */
export async function runEngineCell(op: Op, fault: string, kinds: EngineKind[] = ENGINE_KINDS): Promise<Map<string, KindResult>> {
  let stage: Stage = op === "create" ? "support" : "declared";
  const ctx = await startE2e(
    `faults-${op}`,
    programOf(kinds, () => stage),
  );
  try {
    await ctx.stack.setConfig("vplatform:requestTimeoutMs", { value: String(REQUEST_TIMEOUT_MS) });
    const made = await ctx.stack.up(collect(ctx));
    const support = Object.fromEntries(Object.entries(made.outputs).map(([k, v]) => [k, v.value])) as Support;
    const stateOf = async () => (await ctx.stack.exportStack()).deployment.resources as StateEntry[];
    const idOf = (state: StateEntry[], k: EngineKind) =>
      state.find((r) => r.id && logicalOf(r.urn) === k.logical && r.type.includes("vplatform:"))?.id;
    const before = await stateOf();

    const faultIds = new Map<string, number>();
    for (const k of kinds)
      faultIds.set(
        k.name,
        Number((await ctx.fault({ ...k.target(op, { ...support, id: idOf(before, k) }), ...FAULTS[fault]() } as any)).id),
      );
    stage = op === "create" ? "declared" : op === "update" ? "changed" : "support";
    // Every kind gets its attempt under the fault, whichever fails first (the engine otherwise stops launching steps).
    const first = await ctx.stack.up({ ...collect(ctx), continueOnError: true }).then(
      () => "ok",
      (e: Error) => errorLines(e.message),
    );
    // A fault still armed with no hit never reached its kind (a 503×3 may stop after one hit: the provider gave up).
    const unfired = new Set((await ctx.faults()).filter((f) => f.hits === 0).map((f) => f.id));
    await ctx.clearFaults();
    const second = await ctx.stack.up(collect(ctx)).then(
      () => undefined,
      (e: Error) => errorLines(e.message),
    );

    const after = await stateOf();
    await ctx.stack.refresh(collect(ctx));
    const refreshed = await stateOf();
    const planned = new Set<string>();
    await ctx.stack.preview({
      ...collect(ctx),
      onEvent: (e: EngineEvent) => {
        const m = e.resourcePreEvent?.metadata;
        if (m && m.op !== "same") planned.add(logicalOf(m.urn));
      },
    });

    const results = new Map<string, KindResult>();
    for (const k of kinds) {
      const id = idOf(after, k);
      const rows = await k.rows(ctx.api, { ...support, id });
      const problems: string[] = [];
      if (unfired.has(faultIds.get(k.name)!)) problems.push("its fault never fired");
      if (second) problems.push(`the second up failed: ${second}`);
      const expected = op === "delete" ? [] : id ? [id] : ["(in state)"];
      if (JSON.stringify(rows.sort()) !== JSON.stringify(expected))
        problems.push(`rows ${JSON.stringify(rows)}, state ${JSON.stringify(id ?? null)}`);
      const outs = (s: StateEntry[]) =>
        canonical(s.find((r) => r.id && logicalOf(r.urn) === k.logical && r.type.includes("vplatform:"))?.outputs ?? null);
      if (outs(after) !== outs(refreshed)) problems.push("the refresh changed its outputs");
      if (planned.has(k.logical)) problems.push("the preview after the refresh plans a change");
      results.set(k.name, { clean: problems.length === 0, detail: `${problems.join("; ")} (first up: ${first})` });
    }
    return results;
  } finally {
    await ctx.dispose();
  }
}

/** JSON with object keys sorted: a refresh may write the same outputs in another order. */
const canonical = (v: unknown): string =>
  JSON.stringify(v, (_k, x) =>
    x && typeof x === "object" && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => a.localeCompare(b))) : x,
  );
