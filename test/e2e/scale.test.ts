// Request economy under the real engine: hardware deleted with its VM, and a
// lab that fits the platform's real rate limit (1000 requests per key-hour,
// with the hour time-scaled like every other duration of the emulator).
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { labProgram } from "../../bench/lab";
import { type CountedStack, collectInto as collect, countOf as count, openCountedStack as open } from "./countedStack";

const GiB = 1024 ** 3;
type Run = CountedStack;

describe("hardware is deleted with its VM", () => {
  const drivesOf: Record<string, string[]> = { "dw-0": ["os", "data"], "dw-1": ["os", "data"], "dw-2": ["os", "data"] };
  // The VMs do not depend on the vnet: its deletion waits while the NICs' VMs go.
  const program: PulumiFn = async () => {
    const vp = require("vplatform");
    const net = new vp.Vnet("net", { name: "dw-net", network: "10.40.0.0/24" });
    for (const [name, drives] of Object.entries(drivesOf)) {
      const vm = new vp.VirtualMachine(name, { name, cpuCores: 1, ram: 512, allowHotplug: true });
      const hardware = [
        ...drives.map((d) => new vp.Drive(`${name}-${d}`, { machine: vm.machineKey, name: d, disksize: GiB, preferredTier: 3 })),
        new vp.Nic(`${name}-eth0`, { machine: vm.machineKey, vnet: net.id }),
      ];
      new vp.VmPower(`${name}-power`, { vm: vm.id, state: "running" }, { dependsOn: hardware });
    }
  };
  let run: Run;
  beforeAll(async () => {
    run = await open("deleted-with", program, { timeScale: 0.01 });
  }, 120_000);
  afterAll(() => run?.dispose());

  test("up makes three running VMs with two drives and a NIC each", async () => {
    expect((await run.stack.up(collect(run))).summary.result).toBe("succeeded");
    expect(await run.api("/v4/vms?filter=name%20bw%20'dw-'%20and%20machine%23status%23status%20eq%20'running'&fields=name")).toHaveLength(
      3,
    );
  }, 180_000);

  test("removing one drive of a VM that stays deletes that drive alone (unplugged first: the VM runs)", async () => {
    drivesOf["dw-0"] = ["os"];
    await run.reset();
    expect((await run.stack.up(collect(run))).summary.result).toBe("succeeded");
    const c = await run.counts();
    expect(count(c, "DELETE", "machine_drives")).toBe(1);
    expect(count(c, "DELETE", "vms")).toBe(0);
    expect(await run.api("/v4/machine_drives?filter=name%20eq%20'data'&fields=machine")).toHaveLength(2);
  }, 180_000);

  test("destroy deletes each VM once, with no hot-unplug and no DELETE per drive or NIC, and leaves nothing", async () => {
    await run.reset();
    expect((await run.stack.destroy(collect(run))).summary.result).toBe("succeeded");
    const c = await run.counts();
    expect(count(c, "DELETE", "machine_drives")).toBe(0);
    expect(count(c, "DELETE", "machine_nics")).toBe(0);
    expect(count(c, "DELETE", "vms")).toBe(3);
    expect(count(c, "POST", "vm_actions")).toBe(3); // one power-off each, no hotplugdrive
    expect(await run.api("/v4/vms?filter=name%20bw%20'dw-'&fields=name")).toEqual([]);
    expect(await run.api("/v4/vnets?filter=name%20eq%20'dw-net'&fields=name")).toEqual([]);
    expect(await run.api("/v4/machine_drives?fields=$key")).toEqual([]);
    expect(await run.api("/v4/machine_nics?fields=$key")).toEqual([]);
  }, 180_000);
});

describe("under the platform's real rate limit (1000 requests per key-hour; the hour is 36 s at time scale 0.01)", () => {
  let run: Run;
  beforeAll(async () => {
    run = await open(
      "key-hour",
      labProgram(() => ({ vms: 50, dataGiB: 1, prefix: "kh" })),
      { timeScale: 0.01, rateLimitPerHour: 1000, rateLimitFollowsTimeScale: true },
      {
        "vplatform:requestBudgetWindowSec": "36",
      },
    );
  }, 120_000);
  afterAll(() => run?.dispose());

  test("a 50-VM lab goes up and is destroyed completely in one run of the key's budget", async () => {
    const parallel = 200; // waits are coalesced: let the lab's power-ons overlap
    expect((await run.stack.up({ ...collect(run), parallel })).summary.result).toBe("succeeded");
    expect(await run.api("/v4/vms?filter=name%20bw%20'kh-'%20and%20machine%23status%23status%20eq%20'running'&fields=name")).toHaveLength(
      50,
    );
    expect((await run.stack.destroy({ ...collect(run), parallel })).summary.result).toBe("succeeded");
    expect(await run.api("/v4/vms?filter=name%20bw%20'kh-'&fields=name")).toEqual([]);
    expect(await run.api("/v4/machine_drives?fields=$key")).toEqual([]);
    expect(await run.api("/v4/vnets?filter=name%20eq%20'kh-net'&fields=name")).toEqual([]);
    const used = (await run.counts()).total;
    console.log(`50-VM lab, up + destroy: ${used} requests`);
    expect(used).toBeLessThan(1000);
  }, 600_000);
});

describe("a 429 from the platform is waited out, never failing the run", () => {
  let run: Run;
  beforeAll(async () => {
    // 60 requests per key-hour, the hour 18 s long: an 8-VM lab needs several hours' worth.
    run = await open(
      "rate-limited",
      labProgram(() => ({ vms: 8, dataGiB: 1, prefix: "rl" })),
      { timeScale: 0.005, rateLimitPerHour: 60, rateLimitFollowsTimeScale: true },
    );
  }, 120_000);
  afterAll(() => run?.dispose());

  test("up and destroy succeed, saying they wait for the rate limit", async () => {
    expect((await run.stack.up({ ...collect(run), parallel: 64 })).summary.result).toBe("succeeded");
    expect((await run.stack.destroy({ ...collect(run), parallel: 64 })).summary.result).toBe("succeeded");
    expect(await run.api("/v4/vms?filter=name%20bw%20'rl-'&fields=name")).toEqual([]);
    expect(run.output.join("")).toMatch(/the platform answered 429 \(rate limit\); waiting \d+s before the next request/);
  }, 600_000);
});
