// The request economy, proven with the emulator's request counter: what each
// mechanism costs in requests, never how long it takes.
import type { ApiClientOptions } from "../../provider/client/api-client";
import { VplatformProvider } from "../../provider/plugin/vplatformProvider";
import { RequestPacer } from "../../provider/client/pacer";
import { isRunning, waitForMachineStatus } from "../../provider/reconcile/machineStatus";
import { platformApiFromConfig } from "../../provider/reconcile/platformClient";
import { Session } from "../../provider/reconcile/session";
import { dynamicDoor } from "../../provider/resources/framework/defineProvider";
import { SessionRegistry, dynamicSessions } from "../../provider/resources/framework/sessionRegistry";
import { pollerFor } from "../../provider/reconcile/statusPoller";
import { type Lab, checkedCreate, providers, startLab } from "./harness";

const GiB = 1024 ** 3;
let lab: Lab;
let config: Record<string, string>;
beforeAll(async () => {
  lab = await startLab();
  config = { "vplatform:endpoint": lab.emu.url, "vplatform:apiKey": lab.emu.apiKey, "vplatform:caCert": lab.emu.caCert };
});
afterAll(() => lab.close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const range = (n: number) => Array.from({ length: n }, (_, i) => i);
type Counts = Awaited<ReturnType<Lab["requests"]>>;
const count = (c: Counts, method: string, table: string) =>
  c.entries.filter((e) => e.method === method && e.table === table).reduce((sum, e) => sum + e.count, 0);

let labNo = 0;
/** `n` stopped VMs with two drives and one NIC each, made by the providers. */
async function makeVms(n: number, opts: { hotplug?: boolean } = {}) {
  const tag = `eco${labNo++}`;
  const net = await checkedCreate(providers.Vnet(), { name: `${tag}-net`, network: `10.${70 + labNo}.0.0/24` });
  return Promise.all(
    range(n).map(async (i) => {
      const vm = await checkedCreate(providers.VirtualMachine(), {
        name: `${tag}-${i}`,
        cpuCores: 1,
        ram: 1024,
        allowHotplug: opts.hotplug ?? true,
      });
      const machine = vm.outs.machineKey;
      const drives = await Promise.all(
        ["os", "data"].map((name) => checkedCreate(providers.Drive(), { machine, name, disksize: GiB, preferredTier: 3 })),
      );
      const nic = await checkedCreate(providers.Nic(), { machine, vnet: net.id });
      return { vm, drives, nic };
    }),
  );
}

describe("coalesced waits: one poller per table reads every waited-on row in one GET per tick", () => {
  test("12 VMs waiting to start together cost one machine_status GET, which reads all 12", async () => {
    const vms = await makeVms(12);
    const api = dynamicSessions.sessionOf("VirtualMachine");
    const keysPerGet: number[] = [];
    const watched = new Session({
      get: (table, key, fields) => api.get(table, key, fields),
      create: (table, body) => api.create(table, body),
      action: (table, body) => api.action(table, body),
      update: (table, key, body) => api.update(table, key, body),
      remove: (table, key) => api.remove(table, key),
      list: (table, query) => {
        if (table === "machine_status") keysPerGet.push(String(query?.filter).split(" or ").length);
        return api.list(table, query);
      },
    });
    await Promise.all(vms.map(({ vm }) => api.action("vm_actions", { vm: vm.id, action: "poweron" })));
    await lab.resetRequests();
    await Promise.all(
      vms.map(({ vm }) =>
        waitForMachineStatus(watched, vm.outs.machineKey, isRunning, {
          kind: "power-on",
          timeoutSec: 60,
          label: `VM ${vm.id} to reach running`,
        }),
      ),
    );
    expect(keysPerGet).toEqual([12]);
    expect(count(await lab.requests(), "GET", "machine_status")).toBe(1);
  });

  test("VMs powered on by their provider wait together: every machine_status GET is a tick of the shared poller", async () => {
    const vms = await makeVms(10);
    const poller = pollerFor(dynamicSessions.sessionOf("VirtualMachine"), "machine_status", "running,status");
    const ticksBefore = poller.reads;
    await lab.resetRequests();
    await Promise.all(
      vms.map(async ({ vm }) => {
        const news = (await providers.VirtualMachine().check(vm.inputs, { ...vm.inputs, powerState: "running" })).inputs;
        await providers.VirtualMachine().update(vm.id, vm.outs, news);
      }),
    );
    const statusGets = count(await lab.requests(), "GET", "machine_status");
    expect(statusGets).toBe(poller.reads - ticksBefore);
    expect(statusGets).toBeLessThan(vms.length / 2);
  });
});

describe("nothing read that this process knows: a VmPower starts a VM this process made without reading its status first", () => {
  test("10 VMs made here and powered on by their VmPower: 10 power-ons, and every machine_status GET is a tick of the wait", async () => {
    const vms = await makeVms(10);
    const poller = pollerFor(dynamicSessions.sessionOf("VirtualMachine"), "machine_status", "running,status");
    const ticksBefore = poller.reads;
    await lab.resetRequests();
    await Promise.all(vms.map(({ vm }) => checkedCreate(providers.VmPower(), { vm: vm.id, state: "running" })));
    const c = await lab.requests();
    expect(count(c, "POST", "vm_actions")).toBe(10);
    expect(count(c, "GET", "machine_status")).toBe(poller.reads - ticksBefore);
    expect(count(c, "GET", "vms")).toBe(0);
  });

  test("a VM started outside this process meanwhile: the power-on's 409 is read as 'there already', nothing fails", async () => {
    const [{ vm }] = await makeVms(1);
    await lab.api("POST", "vm_actions", { vm: vm.id, action: "poweron" });
    await waitForMachineStatus(dynamicSessions.sessionOf("VirtualMachine"), vm.outs.machineKey, isRunning, {
      kind: "power-on",
      timeoutSec: 30,
      label: "the VM to run",
    });
    const made = await checkedCreate(providers.VmPower(), { vm: vm.id, state: "running" });
    expect(made.outs).toMatchObject({ running: true, status: "running" });
  });
});

describe("batched reads: concurrent reads of one table are one filtered GET", () => {
  test("a refresh of 8 VMs, 16 drives and 8 NICs costs one GET per table", async () => {
    const vms = await makeVms(8);
    await lab.resetRequests();
    await Promise.all(
      vms.flatMap(({ vm, drives, nic }) => [
        providers.VirtualMachine().read(vm.id, vm.outs),
        ...drives.map((d) => providers.Drive().read(d.id, d.outs)),
        providers.Nic().read(nic.id, nic.outs),
      ]),
    );
    const c = await lab.requests();
    expect([count(c, "GET", "vms"), count(c, "GET", "machine_drives"), count(c, "GET", "machine_nics")]).toEqual([1, 1, 1]);
    expect(c.total).toBe(3);
  });

  test("a refresh of 3 webhooks, 3 tasks, 3 event triggers and 3 schedules (with their task links) costs one GET per table", async () => {
    const sets = await Promise.all(
      range(3).map(async (i) => {
        const hook = await checkedCreate(providers.Webhook(), { name: `eco-hook-${i}`, url: "https://127.0.0.1:9/" });
        const task = await checkedCreate(providers.Task(), { name: `eco-task-${i}`, webhook: hook.id });
        const trigger = await checkedCreate(providers.EventTrigger(), { task: task.id, type: "alarms", event: "raised" });
        const schedule = await checkedCreate(providers.Schedule(), { name: `eco-schedule-${i}`, repeatEvery: "week", tasks: [task.id] });
        return { hook, task, trigger, schedule };
      }),
    );
    await lab.resetRequests();
    await Promise.all(
      sets.flatMap(({ hook, task, trigger, schedule }) => [
        providers.Webhook().read(hook.id, hook.outs),
        providers.Task().read(task.id, task.outs),
        providers.EventTrigger().read(trigger.id, trigger.outs),
        providers.Schedule().read(schedule.id, schedule.outs),
      ]),
    );
    const c = await lab.requests();
    const tables = ["webhook_urls", "tasks", "task_events", "task_schedules", "task_schedule_triggers"];
    expect(tables.map((t) => count(c, "GET", t))).toEqual([1, 1, 1, 1, 1]);
    expect(c.total).toBe(tables.length);
  });

  test("reads of rows that do not exist report them gone, the others found: the table's listing, then one GET of what it lacks", async () => {
    const [{ drives }] = await makeVms(1);
    await lab.resetRequests();
    const [live, gone] = await Promise.all([
      providers.Drive().read(drives[0].id, drives[0].outs),
      providers.Drive().read("999999", drives[0].outs),
    ]);
    expect(live.id).toBe(drives[0].id);
    expect(gone.id).toBe("");
    expect(count(await lab.requests(), "GET", "machine_drives")).toBe(2);
  });
});

describe("a class's reads of what an answer lacks join across its copies", () => {
  test("the snapshots of 8 VMs sent together learn their keys (the snapshot's answer has none) in one vms GET, not 8", async () => {
    const vms = await makeVms(8);
    await lab.resetRequests();
    const snapshots = await Promise.all(vms.map(({ vm }) => checkedCreate(providers.VmSnapshot(), { vm: vm.id, name: "start" })));
    const c = await lab.requests();
    expect(count(c, "POST", "vm_actions")).toBe(8);
    expect(count(c, "GET", "vms")).toBe(1);
    for (const [i, s] of snapshots.entries()) {
      const row = await lab.api("GET", `vms/${s.id}?fields=is_snapshot,parent_vm,name`);
      expect(row).toEqual({ is_snapshot: true, parent_vm: Number(vms[i].vm.id), name: "start" });
    }
  });

  test("snapshots started together but finishing apart (some wait for their VM) still read their keys in one GET", async () => {
    const vms = await makeVms(6);
    const session = dynamicSessions.sessionOf("VmSnapshot");
    await lab.resetRequests();
    // Half the VMs are busy with another change for a while: their snapshots are taken, and finish, a few status reads later.
    const busy = vms.filter((_, i) => i % 2 === 1).map(({ vm }) => session.withMachineLock(vm.outs.machineKey, () => sleep(1500)));
    const snapshots = await Promise.all(vms.map(({ vm }) => checkedCreate(providers.VmSnapshot(), { vm: vm.id, name: "start" })));
    await Promise.all(busy);
    const c = await lab.requests();
    expect(count(c, "GET", "machine_status")).toBeGreaterThan(1); // they were seen finished by different reads
    expect(count(c, "GET", "vms")).toBe(1);
    expect(new Set(snapshots.map((s) => s.id)).size).toBe(6);
  });

  test("snapshots started one after another, each done before the next starts (a lab's VMs getting ready in turn), read their keys in one GET (two if the first finished alone)", async () => {
    const vms = await makeVms(5);
    await lab.resetRequests();
    const snapshots = [];
    for (const { vm } of vms) {
      snapshots.push(checkedCreate(providers.VmSnapshot(), { vm: vm.id, name: "start" }));
      await sleep(700); // the next VM ready 0.7 s later
    }
    const taken = await Promise.all(snapshots);
    const c = await lab.requests();
    expect(count(c, "POST", "vm_actions")).toBe(5);
    // The first, finished before the second started, is no stream yet and reads alone; the next four read together.
    expect(count(c, "GET", "vms")).toBeLessThanOrEqual(2);
    expect(new Set(taken.map((s) => s.id)).size).toBe(5);
  });

  test("a grant on a clone made in this run is checked without a look-up: the run made the VM", async () => {
    await lab.newRun();
    const tpl = await checkedCreate(providers.VirtualMachine(), { name: "grant-tpl", cpuCores: 1, ram: 1024 });
    const student = await checkedCreate(providers.User(), { name: "grant-student", role: "none" });
    const clones = await Promise.all(
      range(4).map((i) => checkedCreate(providers.VirtualMachine(), { name: `grant-clone-${i}`, cloneFrom: { vm: tpl.id } })),
    );
    await lab.resetRequests();
    await oneAtATime(clones, (clone) =>
      checkedCreate(providers.Permission(), { user: student.id, table: "vms", row: clone.id, read: true, modify: true }),
    );
    const c = await lab.requests();
    expect([count(c, "POST", "permissions"), count(c, "GET", "vms")]).toEqual([4, 0]);
  });

  test("users of role none read their identity (what each grant names) as they are made, together; their grants read none", async () => {
    await lab.newRun();
    const vnets = await Promise.all(range(2).map((i) => checkedCreate(providers.Vnet(), { name: `ids-${i}`, network: `10.6${i}.0.0/24` })));
    await checkedCreate(providers.User(), { name: "ids-first", role: "none" }); // the checks' listing of the user names is read now
    await lab.resetRequests();
    const users = await Promise.all(range(8).map((i) => checkedCreate(providers.User(), { name: `ids-student-${i}`, role: "none" })));
    expect(count(await lab.requests(), "GET", "users")).toBe(1);
    await lab.resetRequests();
    const grants = users.flatMap((u) => vnets.map((v) => ({ user: u.id, table: "vnets", row: v.id, read: true })));
    await Promise.all(grants.map((g) => checkedCreate(providers.Permission(), g)));
    const c = await lab.requests();
    expect([count(c, "POST", "permissions"), count(c, "GET", "users")]).toEqual([16, 0]);
    const { identity } = await lab.api("GET", `users/${users[0].id}?fields=identity`);
    expect(await lab.api("GET", `permissions?filter=identity%20eq%20${identity}&fields=table`)).toEqual([
      { table: "vnets" },
      { table: "vnets" },
    ]);

    // A user with a role reaches what it needs without grants: nothing is read for it.
    await lab.resetRequests();
    await checkedCreate(providers.User(), { name: "ids-reader", role: "readonly" });
    expect(count(await lab.requests(), "GET", "users")).toBe(0);
  });

  test("users and their API keys made one after another (the engine reaching each copy in turn) read identities and creation times in one GET each", async () => {
    await lab.newRun();
    await checkedCreate(providers.User(), { name: "stream-first", role: "none" }); // the checks' listing of the user names is read now
    await lab.resetRequests();
    const made = [];
    for (const i of range(5)) {
      made.push(
        checkedCreate(providers.User(), { name: `stream-student-${i}`, role: "none" }).then(async (user) => ({
          user,
          key: await checkedCreate(providers.ApiKey(), { user: user.id, name: `stream-key-${i}` }),
        })),
      );
      await sleep(700); // the next copy 0.7 s later
    }
    const copies = await Promise.all(made);
    const c = await lab.requests();
    expect([count(c, "POST", "users"), count(c, "POST", "user_api_keys")]).toEqual([5, 5]);
    expect([count(c, "GET", "users"), count(c, "GET", "user_api_keys")]).toEqual([1, 1]);
    for (const { key } of copies) expect(key.outs.created).toBeGreaterThan(0);
  });
});

/** The engine's way: it calls `check` for one resource after another, each once the last one answered. */
async function oneAtATime<T>(items: T[], check: (item: T) => Promise<any>): Promise<any[]> {
  const results = [];
  for (const item of items) results.push(await check(item));
  return results;
}

describe("nothing verified twice: checks answer from one listing of a table per run", () => {
  test("the name checks of 10 new VMs, made one at a time as the engine does, cost one vms GET together", async () => {
    await lab.newRun();
    await lab.resetRequests();
    const results = await oneAtATime(range(10), (i) =>
      providers.VirtualMachine().check({}, { name: `named-${i}`, cpuCores: 1, ram: 1024 }),
    );
    expect(results.map((r) => r.failures ?? [])).toEqual(range(10).map(() => []));
    expect((await lab.requests()).total).toBe(1);
  });

  test("the name checks of 10 new users (a class's), one at a time, cost one users GET together; a taken name is still refused", async () => {
    await lab.newRun();
    await lab.api("POST", "users", { name: "taken-user" });
    await lab.resetRequests();
    const results = await oneAtATime([...range(10).map((i) => `student-${i}`), "taken-user"], (name) =>
      providers.User().check({}, { name }),
    );
    expect(results.slice(0, 10).map((r) => r.failures ?? [])).toEqual(range(10).map(() => []));
    expect(results[10].failures).toEqual([
      expect.objectContaining({ property: "name", reason: expect.stringContaining("'taken-user' already exists") }),
    ]);
    // One listing of the names, and the taken one looked up afresh before it is refused.
    expect(count(await lab.requests(), "GET", "users")).toBe(2);
  });

  test("checks of 6 drives on VMs made before this run cost one GET together; an unchanged key costs none", async () => {
    const machines = await Promise.all(
      range(6).map(async (i) => String((await lab.api("POST", "vms", { name: `guard-${i}`, cpu_cores: 1, ram: 1024 })).response.machine)),
    );
    const drive = (machine: string) => ({ machine, name: "extra", disksize: GiB, preferredTier: 3 });
    await lab.newRun();
    await lab.resetRequests();
    const results = await oneAtATime(machines, (machine) => providers.Drive().check({}, drive(machine)));
    expect(results.map((r) => r.failures ?? [])).toEqual(machines.map(() => []));
    expect((await lab.requests()).total).toBe(1);

    const [{ drives }] = await makeVms(1);
    await lab.resetRequests();
    await providers.Drive().check(drives[0].inputs, { ...drives[0].inputs, disksize: 2 * GiB });
    expect((await lab.requests()).total).toBe(0);
  });

  test("the vnet checks of 8 NICs cost one GET together; a vnet unchanged since the last run or already found costs none", async () => {
    const net = await lab.api("POST", "vnets", { name: "ref-net", network: "10.99.0.0/24" });
    const machines = await Promise.all(
      range(8).map(async (i) => String((await lab.api("POST", "vms", { name: `ref-${i}`, cpu_cores: 1, ram: 1024 })).response.machine)),
    );
    const nics = machines.map((machine) => ({ machine, vnet: String(net.$key) }));
    await lab.newRun();
    await lab.resetRequests();
    const results = await oneAtATime(nics, (nic) => providers.Nic().check({}, nic));
    expect(results.map((r) => r.failures ?? [])).toEqual(machines.map(() => []));
    expect(count(await lab.requests(), "GET", "vnets")).toBe(1);

    await lab.resetRequests();
    await oneAtATime(nics, (nic) => providers.Nic().check(nic, { ...nic, name: "eth1" }));
    expect((await lab.requests()).total).toBe(0);

    const another = String((await lab.api("POST", "vms", { name: "ref-late", cpu_cores: 1, ram: 1024 })).response.machine);
    await lab.resetRequests();
    await providers.Nic().check({}, { machine: another, vnet: String(net.$key) }); // a NIC handed over later: the vnet is known by now
    expect(count(await lab.requests(), "GET", "vnets")).toBe(0);
  });

  test("what the listing lacks is looked up afresh before anything is refused: a vnet made after the listing passes, a missing one is refused", async () => {
    const early = await lab.api("POST", "vnets", { name: "copy-early", network: "10.98.0.0/24" });
    const machine = String((await lab.api("POST", "vms", { name: "copy-host", cpu_cores: 1, ram: 1024 })).response.machine);
    await lab.newRun();
    expect((await providers.Nic().check({}, { machine, vnet: String(early.$key) })).failures).toBeUndefined();
    const late = await lab.api("POST", "vnets", { name: "copy-late", network: "10.97.0.0/24" });
    expect((await providers.Nic().check({}, { machine, vnet: String(late.$key) })).failures).toBeUndefined();
    expect((await providers.Nic().check({}, { machine, vnet: "999999" })).failures).toEqual([
      { property: "vnet", reason: expect.stringContaining("no vnet '999999'") },
    ]);
  });

  test("the plugin's check gets the old inputs too: an unchanged machine key costs no request, a new one is verified", async () => {
    const plugin = new VplatformProvider();
    plugin.configure({ endpoint: lab.emu.url, apiKey: lab.emu.apiKey, caCert: lab.emu.caCert });
    const machine = String((await lab.api("POST", "vms", { name: "plugin-guard", cpu_cores: 1, ram: 1024 })).response.machine);
    const olds = { machine, name: "data", disksize: GiB, preferredTier: 3 };
    const urn = "urn:pulumi:dev::lab::vplatform:index:Drive::data";
    await lab.resetRequests();
    expect(await plugin.check(urn, olds, { ...olds, disksize: 2 * GiB })).toMatchObject({ inputs: { machine, disksize: 2 * GiB } });
    expect((await lab.requests()).total).toBe(0);
    expect(await plugin.check(urn, {}, olds)).toMatchObject({ inputs: { machine } });
    expect(count(await lab.requests(), "GET", "vms")).toBe(1);
  });

  test("the hardware of a VM this process created is checked and created without looking the VM up", async () => {
    const vm = await checkedCreate(providers.VirtualMachine(), { name: "known-owner", cpuCores: 1, ram: 1024 });
    await lab.resetRequests();
    await checkedCreate(providers.Drive(), { machine: vm.outs.machineKey, name: "os", disksize: GiB, preferredTier: 3 });
    const c = await lab.requests();
    expect(count(c, "GET", "vms")).toBe(0);
    expect(count(c, "POST", "machine_drives")).toBe(1);
  });

  test("a VM key given as a machine key is still refused, naming the machine key to use", async () => {
    // A VM whose key is no machine's: the two keys of a VM are different numbers, but another VM's machine (a
    // snapshot's, made earlier in this file) may carry this one's VM key, and such a key is a right one.
    const isMachineKey = async (key: string) => (await lab.api("GET", `vms?filter=machine%20eq%20${key}&fields=$key`)).length > 0;
    let [{ vm }] = await makeVms(1);
    while (await isMachineKey(vm.id)) [{ vm }] = await makeVms(1);
    const checked = await providers.Drive().check({}, { machine: vm.id, name: "x", disksize: GiB, preferredTier: 3 });
    expect(checked.failures).toEqual([{ property: "machine", reason: expect.stringContaining(`hardware takes the machine key`) }]);
  });
});

describe("look-ups before a create: the row an interrupted earlier attempt made is looked for only where it can hide", () => {
  test("VMs send no look before their POST (a VM an earlier attempt made shows as the name conflict); drives of VMs this process made need no look", async () => {
    await lab.newRun();
    await lab.resetRequests();
    const vms = await Promise.all(
      range(6).map((i) => checkedCreate(providers.VirtualMachine(), { name: `pre-${i}`, cpuCores: 1, ram: 1024 })),
    );
    const afterVms = await lab.requests();
    expect(count(afterVms, "POST", "vms")).toBe(6);
    expect(count(afterVms, "GET", "vms")).toBe(1); // the checks' listing of the VM names
    await lab.resetRequests();
    await Promise.all(
      vms.map(({ outs }) => checkedCreate(providers.Drive(), { machine: outs.machineKey, name: "os", disksize: GiB, preferredTier: 3 })),
    );
    expect(count(await lab.requests(), "GET", "machine_drives")).toBe(0);
  });

  test("a clone made now is a VM made here: its drive, NIC and snapshot are sent without a look for an earlier run's", async () => {
    await lab.newRun();
    const tpl = await checkedCreate(providers.VirtualMachine(), { name: "tpl-eco", cpuCores: 1, ram: 1024 });
    const vnet = await checkedCreate(providers.Vnet(), { name: "eco-net", network: "10.77.0.0/24" });
    const clone = await checkedCreate(providers.VirtualMachine(), { name: "clone-eco", cloneFrom: { vm: tpl.id } });
    await lab.resetRequests();
    await checkedCreate(providers.Drive(), { machine: clone.outs.machineKey, name: "data", disksize: GiB, preferredTier: 3 });
    await checkedCreate(providers.Nic(), { machine: clone.outs.machineKey, name: "eth0", vnet: vnet.id });
    await checkedCreate(providers.VmSnapshot(), { vm: clone.id, name: "start" });
    const r = await lab.requests();
    expect(count(r, "GET", "machine_drives")).toBe(0);
    expect(count(r, "GET", "machine_nics")).toBe(0);
    expect(count(r, "GET", "vms")).toBe(1); // the snapshot's key, which its action's answer does not give
  });

  test("12 drives on 6 VMs made elsewhere look for an earlier attempt's rows in at most two machine_drives GETs", async () => {
    const machines = await Promise.all(
      range(6).map(async (i) => String((await lab.api("POST", "vms", { name: `pre-out-${i}`, cpu_cores: 1, ram: 1024 })).response.machine)),
    );
    await lab.resetRequests();
    await Promise.all(
      machines.flatMap((machine) =>
        ["os", "data"].map((name) => checkedCreate(providers.Drive(), { machine, name, disksize: GiB, preferredTier: 3 })),
      ),
    );
    const afterDrives = await lab.requests();
    expect(count(afterDrives, "POST", "machine_drives")).toBe(12);
    // The six os drives' look-ups go together, then the six data drives' (a machine's changes take turns under its lock).
    expect(count(afterDrives, "GET", "machine_drives")).toBeLessThanOrEqual(2);
  });
});

describe("a drive or NIC added to a running VM is created once it is plugged in", () => {
  test("the drive reads online when create returns, and deleting it right away works (no 'already hotplugging')", async () => {
    const [{ vm }] = await makeVms(1);
    const news = (await providers.VirtualMachine().check(vm.inputs, { ...vm.inputs, powerState: "running" })).inputs;
    await providers.VirtualMachine().update(vm.id, vm.outs, news);
    const drive = await checkedCreate(providers.Drive(), { machine: vm.outs.machineKey, name: "hot", disksize: GiB, preferredTier: 3 });
    const nic = await checkedCreate(providers.Nic(), {
      machine: vm.outs.machineKey,
      vnet: (await lab.api("GET", "vnets?filter=name%20eq%20'External'&fields=$key"))[0].$key,
    });
    expect((await lab.api("GET", `machine_drive_status/${drive.id}?fields=status`)).status).toBe("online");
    expect((await lab.api("GET", `machine_nic_status/${nic.id}?fields=status`)).status).toBe("up");
    await providers.Drive().delete(drive.id, drive.outs);
    expect(await lab.api("GET", `machine_drives?filter=$key%20eq%20${drive.id}`)).toEqual([]);
  });
});

describe("pacing: a budget of B requests per window is never exceeded, the run waits instead and says so", () => {
  test("a VM and 20 drives under a budget of 15 requests per 2 s: no 2 s window holds more than 15, and it says it waits", async () => {
    const sentAt: number[] = [];
    const options: ApiClientOptions = { pacer: new RequestPacer(), onRequest: (e) => sentAt.push(Date.now() - e.ms) };
    const sessions = new SessionRegistry((get) => platformApiFromConfig(get, options));
    const budgeted: Record<string, string> = { ...config, "vplatform:requestBudget": "15", "vplatform:requestBudgetWindowSec": "2" };
    const [vmDoor, driveDoor] = [providers.VirtualMachine(), providers.Drive()].map((p) => dynamicDoor(p.operations, sessions));
    for (const door of [vmDoor, driveDoor]) await door.configure!({ config: { get: (k: string) => budgeted[k] } } as never);
    const lines: string[] = [];
    const log = jest.spyOn(console, "log").mockImplementation((line: string) => void lines.push(line));
    try {
      const vm = await checkedCreate(vmDoor, { name: "paced", cpuCores: 1, ram: 1024 });
      for (const i of range(20))
        await checkedCreate(driveDoor, { machine: vm.outs.machineKey, name: `d${i}`, disksize: GiB, preferredTier: 3 });
    } finally {
      log.mockRestore();
    }
    expect(sentAt.length).toBeGreaterThan(15);
    // Send times are taken from the answers (a few ms of slack).
    for (const t of sentAt) expect(sentAt.filter((u) => u >= t && u < t + 1950).length).toBeLessThanOrEqual(15);
    expect(lines.some((l) => /request budget of 15 requests per 2s is used; waiting \d+s before the next request/.test(l))).toBe(true);
  }, 60_000);
});
