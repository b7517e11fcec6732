// The engine killed mid-create (SIGKILL of `pulumi up` while drive creates are in flight and
// land after it died): `pulumi cancel`, then `up` takes over what the dead run made (found by the
// create markers): no duplicate, no orphan, no state entry without a row, and a clean refresh.
// The provider process the dead engine left behind exits on its own.
import { execFileSync } from "child_process";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { collect, startE2e, type E2eContext } from "./harness";

const DRIVES = 4;
const program: PulumiFn = async () => {
  const vp = require("vplatform");
  const vm = new vp.VirtualMachine("vm", { name: "intr-vm", ram: 1024, powerState: "stopped" });
  for (let i = 0; i < DRIVES; i++) new vp.Drive(`vm-disk-${i}`, { machine: vm.machineKey, media: "disk", disksize: 1024 ** 3 });
  return { machineKey: vm.machineKey };
};

let ctx: E2eContext;
beforeAll(async () => {
  ctx = await startE2e("interrupts", program);
}, 120_000);
afterAll(async () => ctx?.dispose());

/** Direct children of a process, with their command lines. */
function children(pid: number): { pid: number; cmd: string }[] {
  try {
    return execFileSync("ps", ["-o", "pid=,args=", "--ppid", String(pid)], { encoding: "utf8" })
      .split("\n")
      .filter((l) => l.trim())
      .map((l) => ({ pid: Number(l.trim().split(/\s+/)[0]), cmd: l.trim().replace(/^\d+\s+/, "") }));
  } catch {
    return [];
  }
}
const descendants = (pid: number): { pid: number; cmd: string }[] => children(pid).flatMap((c) => [c, ...descendants(c.pid)]);
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("SIGKILL of the engine in the middle of creates", () => {
  test("cancel and up converge: every drive once, none orphaned; the dead engine's provider process exits", async () => {
    const machineRows = async (machine: string) => (await ctx.api("GET", `/v4/machine_drives?filter=machine%20eq%20${machine}&fields=$key`)).body as unknown[];
    // Drive creates stall 2 s in the platform, then land: the engine is killed while they are in flight.
    await ctx.fault({ method: "POST", table: "machine_drives", stallMs: 2_000 });
    const run = ctx.stack.up(collect(ctx)).catch((e: Error) => e);
    let engine: { pid: number; cmd: string } | undefined;
    for (let i = 0; i < 600 && !engine; i++) {
      const counts = await ctx.requestCounts();
      if (counts.entries.some((e) => e.method === "POST" && e.table === "machine_drives")) {
        engine = children(process.pid).find((c) => /pulumi\b.*\bup\b/.test(c.cmd));
      } else await sleep(100);
    }
    expect(engine).toBeDefined();
    const providers = descendants(engine!.pid).filter((c) => /dynamic-provider/.test(c.cmd));
    expect(providers.length).toBeGreaterThan(0);
    process.kill(engine!.pid, "SIGKILL");
    expect(await run).toBeInstanceOf(Error);
    await sleep(2_500); // the in-flight creates land meanwhile
    await ctx.clearFaults();

    await ctx.stack.cancel().catch(() => undefined); // the file backend may hold no lock to cancel
    const up = await ctx.stack.up(collect(ctx));
    expect(up.summary.result).toBe("succeeded");
    const machineKey = up.outputs.machineKey.value as string;
    const state = await ctx.stack.exportStack();
    const drives = (state.deployment.resources as { type: string; id?: string }[]).filter((r) => /:Drive$/.test(r.type));
    const rows = (await machineRows(machineKey)) as { $key: unknown }[];
    expect(rows.map((r) => String(r.$key)).sort()).toEqual(drives.map((d) => String(d.id)).sort());
    expect(rows).toHaveLength(DRIVES);
    expect(await ctx.api("GET", "/v4/vms?filter=name%20eq%20'intr-vm'&fields=$key").then((r) => r.body)).toHaveLength(1);

    const refresh = await ctx.stack.refresh(collect(ctx));
    expect(Object.keys(refresh.summary.resourceChanges ?? {}).filter((k) => k !== "same")).toEqual([]);
    const preview = await ctx.stack.preview(collect(ctx));
    expect(Object.keys(preview.changeSummary).filter((k) => k !== "same")).toEqual([]);

    // The provider process of the killed engine notices and exits (it probes every 5 s).
    for (let i = 0; i < 40 && providers.some((p) => alive(p.pid)); i++) await sleep(500);
    expect(providers.filter((p) => alive(p.pid))).toEqual([]);
  }, 300_000);
});
