// `npm run bench` (or `./dev bench`): what the provider costs in API requests
// and seconds, on the embedded emulator. The platform allows 1000 requests per
// hour per API key, so requests are the figure that matters most.
import { startEmulator } from "../emulator";
import { provider as deviceProvider } from "../provider/resources/device";
import { provider as driveProvider } from "../provider/resources/drive";
import { provider as nicProvider } from "../provider/resources/nic";
import { provider as vmProvider } from "../provider/resources/virtualMachine";
import { provider as vmPowerProvider } from "../provider/resources/vmPower";
import { provider as vnetProvider } from "../provider/resources/vnet";
import got from "got";

type Provider = {
  check(olds: object, news: object): Promise<{ inputs?: any; failures?: unknown[] }>;
  create(inputs: any): Promise<{ id: string; outs?: any }>;
  read?(id: string, props: any): Promise<unknown>;
  update?(id: string, olds: any, news: any): Promise<{ outs?: any }>;
  delete?(id: string, props: any): Promise<void>;
};

type RequestCounts = { total: number; entries: { method: string; table: string; count: number }[] };

const HOURLY_LIMIT = 1000;
const GiB = 1024 ** 3;

async function main(): Promise<void> {
  const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
  const emu = await startEmulator({ port: 0, timeScale: 0.01, quiet: true, rateLimitPerHour: 1_000_000 });
  const admin = { username: emu.adminUser, password: emu.adminPassword };
  const hook = (method: "GET" | "DELETE") =>
    got(`${emu.url}/_emulator/requests`, { method, ...admin, https: { certificateAuthority: emu.caCert } }).json<RequestCounts>();
  const config: Record<string, string> = { "vplatform:endpoint": emu.url, "vplatform:apiKey": emu.apiKey, "vplatform:caCert": emu.caCert };
  await (vmProvider as any).configure({ config: { get: (k: string) => config[k], require: (k: string) => config[k] } });

  const create = async (p: Provider, news: object) => {
    const checked = await p.check({}, news);
    if (checked.failures?.length) throw new Error(JSON.stringify(checked.failures));
    const r = await p.create(checked.inputs);
    return { p, id: r.id, outs: r.outs, inputs: checked.inputs };
  };
  const net = await create(vnetProvider as Provider, { name: "bench-net", network: "10.60.0.0/16" });

  console.log("vplatform benchmark: VMs with 2 drives and 1 NIC each, powered on (emulator, timeScale 0.01)\n");
  const rows: string[][] = [["VMs", "phase", "requests", "per VM", "seconds", "VMs/hour at 1000 req/h"]];
  for (const n of sizes.length ? sizes : [1, 5]) {
    type Made = Awaited<ReturnType<typeof create>>;
    const vms: Made[] = [];
    const hardware: Made[] = [];
    const phase = async (name: string, work: () => Promise<unknown>) => {
      await hook("DELETE");
      const t0 = performance.now();
      await work();
      const seconds = (performance.now() - t0) / 1000;
      const { total } = await hook("GET");
      rows.push([String(n), name, String(total), (total / n).toFixed(1), seconds.toFixed(2), ""]);
      return total;
    };
    let sum = 0;
    sum += await phase("create + power on", () =>
      Promise.all(
        Array.from({ length: n }, async (_, i) => {
          const vm = await create(vmProvider as Provider, { name: `bench-${n}-${i}`, cpuCores: 2, ram: 2048, powerState: "stopped" });
          vms.push(vm);
          for (const name of ["os", "data"])
            hardware.push(await create(driveProvider as Provider, { machine: vm.outs.machineKey, name, disksize: 10 * GiB, preferredTier: 3 }));
          hardware.push(await create(nicProvider as Provider, { machine: vm.outs.machineKey, vnet: net.id }));
          const news = (await vmProvider.check!(vm.inputs, { ...vm.inputs, powerState: "running" } as never)).inputs;
          vm.outs = (await vmProvider.update!(vm.id, vm.outs, news as never)).outs;
        }),
      ),
    );
    sum += await phase("refresh", () => Promise.all([...vms, ...hardware].map((r) => r.p.read!(r.id, r.outs))));
    sum += await phase("destroy", async () => {
      await Promise.all(hardware.map((r) => r.p.delete!(r.id, r.outs)));
      await Promise.all(vms.map((r) => r.p.delete!(r.id, r.outs)));
    });
    rows.push([String(n), "total", String(sum), (sum / n).toFixed(1), "", String(Math.floor(HOURLY_LIMIT / (sum / n)))]);
  }
  printTable(rows);

  // A passthrough device needs a stopped VM: a VM declared running is started, stopped for the device and
  // started again; with VmPower after the device it is started once.
  console.log("\nA VM with a passthrough GPU, from nothing to running (requests; seconds at timeScale 0.01)\n");
  const [group] = await got(`${emu.url}/api/v4/resource_groups?filter=name%20eq%20'nvidia-a100'&fields=uuid`, {
    headers: { authorization: `Bearer ${emu.apiKey}` },
    https: { certificateAuthority: emu.caCert },
  }).json<{ uuid: string }[]>();
  const gpuRows: string[][] = [["how", "requests", "seconds", "power actions"]];
  const measured: number[] = [];
  for (const how of ["powerState on the VM", "VmPower after the device"]) {
    await hook("DELETE");
    const t0 = performance.now();
    const onVm = how === "powerState on the VM";
    const vm = await create(vmProvider as Provider, { name: `bench-gpu-${measured.length}`, ...(onVm ? { powerState: "running" } : {}) });
    const device = await create(deviceProvider as Provider, { machine: vm.outs.machineKey, resourceGroup: group.uuid });
    if (!onVm) await create(vmPowerProvider as Provider, { vm: vm.id, state: "running" });
    const seconds = (performance.now() - t0) / 1000;
    const { total, entries } = await hook("GET");
    const actions = entries.filter((e) => e.method === "POST" && e.table === "vm_actions").reduce((sum, e) => sum + e.count, 0);
    measured.push(total);
    gpuRows.push([how, String(total), seconds.toFixed(2), String(actions)]);
    await device.p.delete!(device.id, device.outs);
    await vm.p.delete!(vm.id, { ...vm.outs, running: true });
  }
  printTable(gpuRows);
  console.log(`\nVmPower: ${(measured[1] / measured[0]).toFixed(2)}× the requests, and one boot instead of boot + graceful shutdown + boot.`);
  await emu.close();
}

function printTable(rows: string[][]): void {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  for (const r of rows) console.log(r.map((cell, c) => cell.padEnd(widths[c])).join("  "));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
