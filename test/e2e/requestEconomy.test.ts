// Request economy at the parallelism users run (issue 21), proven with the
// emulator's request counter and recorder under the real engine at
// `--parallel 2`: what a run needs of a table is read once per run, not once
// per batch the engine happens to hand over.
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { collectInto, countOf, useCountedStack } from "./countedStack";

const GiB = 1024 ** 3;
const parallel = 2;
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

describe("a refresh reads each table once, whatever the engine's parallelism", () => {
  const program: PulumiFn = async () => {
    const vp = require("vplatform");
    for (const i of range(40)) new vp.Vnet(`rf-${i}`, { name: `rf-${i}`, network: `10.60.${i}.0/24` });
  };
  const run = useCountedStack("eco-refresh", program, { timeScale: 0.01 });
  beforeAll(async () => {
    expect((await run().stack.up({ ...collectInto(run()), parallel })).summary.result).toBe("succeeded");
  }, 300_000);

  test("a refresh of 40 vnets at parallelism 2 costs one GET", async () => {
    await run().reset();
    expect((await run().stack.refresh({ ...collectInto(run()), parallel })).summary.result).toBe("succeeded");
    const c = await run().counts();
    expect(countOf(c, "GET", "vnets")).toBe(1);
    expect(c.total).toBe(1);
  }, 300_000);

  test("a vnet changed outside the stack meanwhile is still seen as drift by the next refresh", async () => {
    const [row] = await run().api("/v4/vnets?filter=name%20eq%20'rf-7'&fields=$key");
    await run().patch(`/v4/vnets/${row.$key}`, { network: "10.61.7.0/24" });
    const result = await run().stack.refresh({ ...collectInto(run()), parallel });
    expect(result.summary.resourceChanges?.update).toBe(1);
  }, 300_000);
});

describe("the machine-key checks of hardware on VMs made in the same run cost no look-up each", () => {
  const program: PulumiFn = async () => {
    const vp = require("vplatform");
    for (const v of range(5)) {
      const vm = new vp.VirtualMachine(`mk-${v}`, { name: `mk-${v}`, cpuCores: 1, ram: 512, powerState: "running" });
      for (const d of range(8)) new vp.Drive(`mk-${v}-d${d}`, { machine: vm.machineKey, name: `d${d}`, disksize: GiB, preferredTier: 3 });
    }
  };
  const run = useCountedStack("eco-machine-key", program, { timeScale: 0.01 });

  test("up of 5 VMs and 40 drives at parallelism 2 reads the VMs once (the checks' listing) and looks up no machine key", async () => {
    await run().record();
    expect((await run().stack.up({ ...collectInto(run()), parallel })).summary.result).toBe("succeeded");
    const vmReads = run()
      .recorded()
      .filter((r) => r.method === "GET" && /\/v4\/vms\b/.test(r.url));
    expect(vmReads.filter((r) => decodeURIComponent(r.url).includes("machine eq"))).toEqual([]);
    expect(vmReads).toHaveLength(1);
    expect(await run().api("/v4/machine_drives?fields=$key")).toHaveLength(40);
  }, 300_000);
});

describe("hardware of a VM declared running is attached before the VM is started, not hot-plugged", () => {
  const program: PulumiFn = async () => {
    const vp = require("vplatform");
    const net = new vp.Vnet("cold-net", { name: "cold-net", network: "10.62.0.0/24" });
    const web = new vp.VirtualMachine("web", { name: "web", cpuCores: 1, ram: 512, allowHotplug: true, powerState: "running" });
    for (const name of ["os", "data"]) new vp.Drive(`web-${name}`, { machine: web.machineKey, name, disksize: GiB, preferredTier: 3 });
    new vp.Nic("web-eth0", { machine: web.machineKey, vnet: net.id });
    const lone = new vp.VirtualMachine("lone", { name: "lone", cpuCores: 1, ram: 512, powerState: "running" });
    return { loneStatus: lone.status };
  };
  const run = useCountedStack("eco-cold", program, { timeScale: 0.01 });

  test("up attaches both drives and the NIC while the VM is stopped, then powers it on once", async () => {
    await run().record();
    expect((await run().stack.up({ ...collectInto(run()), parallel })).summary.result).toBe("succeeded");
    const [web] = await run().api("/v4/vms?filter=name%20eq%20'web'&fields=$key,machine,machine%23status%23status%20as%20status");
    expect(web.status).toBe("running");
    const log = run().recorded();
    const actionsOnWeb = log.filter(
      (r) => r.method === "POST" && /vm_actions/.test(r.url) && String((r.body as any)?.vm) === String(web.$key),
    );
    expect(actionsOnWeb.map((r) => (r.body as any).action)).toEqual(["poweron"]);
    const attached = log.filter((r) => r.method === "POST" && /machine_(drives|nics)/.test(r.url));
    expect(attached).toHaveLength(3);
    for (const a of attached) expect(a.seq).toBeLessThan(actionsOnWeb[0].seq);
    expect(
      log.filter((r) => r.method === "GET" && /machine_(drives|nics)/.test(r.url) && /status/.test(decodeURIComponent(r.url))),
    ).toEqual([]);
  }, 300_000);

  test("a VM declared running with no hardware in the run is started at its create", async () => {
    const outputs = await run().stack.outputs();
    expect(outputs.loneStatus.value).toBe("running");
  });

  test("the next preview shows no change", async () => {
    const preview = await run().stack.preview({ ...collectInto(run()), parallel, expectNoChanges: true });
    expect(preview.changeSummary.same).toBeGreaterThan(0);
  }, 300_000);
});

describe("the run says when VM starts queue behind the engine's parallelism", () => {
  const program: PulumiFn = async () => {
    const vp = require("vplatform");
    for (const v of range(8)) new vp.VirtualMachine(`q-${v}`, { name: `q-${v}`, cpuCores: 1, ram: 512, powerState: "running" });
  };
  const run = useCountedStack("eco-queued", program, { timeScale: 0.01 });

  test("8 VMs to start at parallelism 2: said once during the run, with the command that fixes it", async () => {
    expect((await run().stack.up({ ...collectInto(run()), parallel })).summary.result).toBe("succeeded");
    // The engine repeats a provider's lines under Diagnostics at the end: count them as the run went.
    const during = run().output.join("").split("Diagnostics:")[0];
    const hints = during.match(/VM starts are queued behind the engine's parallelism.*?`pulumi up --parallel N`/g) ?? [];
    expect(hints).toHaveLength(1);
  }, 300_000);
});

describe("a lab's new rows are sent without a look first where no earlier row can hide", () => {
  const program: PulumiFn = async () => {
    const vp = require("vplatform");
    new vp.Lab("eco", { copies: 3, pool: "10.63.0.0/16", vms: [{ name: "web" }], user: {}, apiKey: {} });
  };
  const run = useCountedStack("eco-lab", program, { timeScale: 0.01 });

  test("each copy's vnet (names are unique: an earlier one shows as a conflict) and each key of a user made in the run: no look", async () => {
    await run().record();
    expect((await run().stack.up({ ...collectInto(run()), parallel })).summary.result).toBe("succeeded");
    const reads = run()
      .recorded()
      .filter((r) => r.method === "GET")
      .map((r) => decodeURIComponent(r.url));
    expect(reads.filter((url) => /\/v4\/vnets\?.*name eq/.test(url))).toEqual([]);
    expect(reads.filter((url) => /\/v4\/user_api_keys\?.*description ct/.test(url))).toEqual([]);
    expect(await run().api("/v4/user_api_keys?filter=name%20bw%20'eco-'&fields=name")).toHaveLength(3);
  }, 300_000);
});
