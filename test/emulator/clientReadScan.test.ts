/**
 * The read-path scan (issue 31): every read the maker's clients declare in clientFieldNames.ts (CLIENT_READS) is sent
 * as the client sends it, against a platform with a running and a stopped VM, a NIC, nodes, a volume and a finished
 * browse job, and every answered row is decoded with the client's declared type. An unknown name fails the request
 * (400); a value the client's type cannot take fails the decode; a read that answers no row fails too, since it
 * proves nothing.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLIENT_READS, type ClientRead, type Decoded, READS_OUTSIDE_SPEC } from "./clientFieldNames";
import { type Client, startTestEmulator } from "./helpers";

const UNSIGNED_MAX: Record<string, number> = { uint8: 255, uint16: 65535, uint32: 4294967295, uint64: Number.MAX_SAFE_INTEGER };

/** Why `value` does not decode as `type`, or undefined when it does. */
function decodeProblem(type: Decoded, value: unknown): string | undefined {
  if (typeof type === "object") {
    if (value === null) return undefined;
    if (typeof value !== "object" || Array.isArray(value)) return `an object expected, got ${JSON.stringify(value)}`;
    const inner = Object.entries(type.object).flatMap(([name, t]) => {
      const problem = decodeProblem(t, (value as Record<string, unknown>)[name] ?? null);
      return problem ? [`${name}: ${problem}`] : [];
    });
    return inner.length ? inner.join("; ") : undefined;
  }
  const isInt = typeof value === "number" && Number.isInteger(value);
  const numericText = typeof value === "string" && /^-?\d+$/.test(value);
  if (type === "py:int?" && value === null) return undefined;
  if (type === "py:int" || type === "py:int?") return isInt || numericText ? undefined : `int() of ${JSON.stringify(value)} fails`;
  if (value === null || type === "raw") return undefined; // Go leaves a null field at its zero value
  const ok: Record<Exclude<Decoded, object | "py:int" | "py:int?" | "raw">, boolean> = {
    string: typeof value === "string",
    bool: typeof value === "boolean",
    int: isInt,
    int64: isInt,
    float64: typeof value === "number",
    FlexInt: isInt || numericText || value === "",
    uint8: isInt && (value as number) >= 0 && (value as number) <= UNSIGNED_MAX.uint8,
    uint16: isInt && (value as number) >= 0 && (value as number) <= UNSIGNED_MAX.uint16,
    uint32: isInt && (value as number) >= 0 && (value as number) <= UNSIGNED_MAX.uint32,
    uint64: isInt && (value as number) >= 0,
  };
  return ok[type] ? undefined : `Go ${type} cannot take ${JSON.stringify(value)}`;
}

let c: Client;
let browseJob: string;
let vmOn: { vm: string; machine: string };
let vmOff: { vm: string; machine: string };
beforeAll(async () => {
  const volumeDir = mkdtempSync(join(tmpdir(), "scan-volume-"));
  writeFileSync(join(volumeDir, "readme.txt"), "scan");
  c = await startTestEmulator({ clock: "manual", volumes: { data: volumeDir } });
  const net = (await c.get("/api/v4/vnets?filter=name+eq+'External'&fields=$key")).body[0].$key;
  const on = await c.createVm({ name: "scan-on", cpu_cores: 2 });
  vmOn = on;
  vmOff = await c.createVm({ name: "scan-off" });
  await c.post("/api/v4/machine_nics", { machine: on.machine, vnet: net });
  await c.post("/api/v4/machine_nics", { machine: on.machine, vnet: net, enabled: false });
  await c.post("/api/v4/vm_actions", { vm: on.vm, action: "poweron", params: {} });
  c.emu.advanceClock(20_000);
  c.emu.advanceClock(3_600_000);
  const volume = (await c.get("/api/v4/volumes?fields=$key")).body[0].$key;
  // The body govergeos's Browse sends.
  const params = { dir: "", limit: 100, offset: null, filter: { extensions: "" }, volume, sort: "" };
  const job = await c.post("/api/v4/volume_browser", { volume, query: "get-dir", params });
  if (job.status !== 201) throw new Error(`browse job refused: ${job.text}`);
  browseJob = job.body.$key;
  c.emu.advanceClock();
});
afterAll(() => c.emu.close());

async function answer(read: ClientRead): Promise<{ status: number; rows: Record<string, unknown>[]; text: string }> {
  const fields = `fields=${encodeURIComponent(read.fields)}`;
  const reply = await c.get(read.byKey ? `/api/v4/${read.table}/${browseJob}?${fields}` : `/api/v4/${read.table}?${fields}`);
  return { status: reply.status, rows: Array.isArray(reply.body) ? reply.body : [reply.body], text: reply.text };
}

describe("every read the maker's clients declare answers rows their types decode", () => {
  test.each(CLIENT_READS.map((read) => [`${read.client} ${read.call}`, read] as const))("%s", async (_name, read) => {
    const { status, rows, text } = await answer(read);
    expect(`${status} ${status === 200 ? "" : text}`).toBe("200 ");
    expect(rows.length).toBeGreaterThan(0);
    const problems = rows.flatMap((row) =>
      Object.entries(read.decode).flatMap(([name, type]) => {
        const problem = decodeProblem(type, row[name] ?? null);
        return problem ? [`${read.table} $key ${String(row.$key)} ${name}: ${problem}`] : [];
      }),
    );
    expect(problems).toEqual([]);
  });
});

describe("tables the clients read outside the spec are listed, not skipped", () => {
  test.each(Object.entries(READS_OUTSIDE_SPEC))("%s (%s) is not served", async (table) => {
    expect((await c.get(`/api/v4/${table}`)).status).toBe(404);
  });
});

describe("the decoder refuses what a client's type cannot take", () => {
  test.each([
    ["uint8", 300],
    ["uint64", -1],
    ["string", 2048],
    ["int64", false],
    ["FlexInt", "abc"],
    ["py:int", null],
  ] as const)("%s refuses %j", (type, value) => {
    expect(decodeProblem(type, value)).toBeDefined();
  });
  test.each([
    ["uint32", null],
    ["FlexInt", "42"],
    ["raw", [1, 2]],
    ["py:int?", null],
  ] as const)("%s takes %j", (type, value) => {
    expect(decodeProblem(type, value)).toBeUndefined();
  });
});

describe("the figures move as the platform's would", () => {
  const stats = async (machine: string) => (await c.get(`/api/v4/machine_stats/${machine}?fields=most`)).body;
  test("a running VM's stats show load on each running core; a stopped VM's are zeros", async () => {
    expect(await stats(vmOn.machine)).toMatchObject({ total_cpu: 5, core_usagelist: [5, 5], ram_pct: 25 });
    expect(await stats(vmOff.machine)).toMatchObject({ total_cpu: 0, core_usagelist: [], ram_used: 0, core_temp: 0 });
  });

  test("every node has a running machine whose stats carry the VMs placed on it", async () => {
    const nodes = (await c.get("/api/v4/nodes?fields=$key,machine,machine%23status%23status+as+power")).body;
    expect(nodes.map((n: { power: string }) => n.power)).toEqual(["running", "running"]);
    const host = (await c.get(`/api/v4/machine_status/${vmOn.machine}?fields=node`)).body.node;
    const node = nodes.find((n: { $key: number }) => n.$key === host);
    expect((await stats(String(node.machine))).vmusage_cpu).toBeGreaterThan(0);
  });

  test("a NIC's link is up only while it is enabled and its VM runs", async () => {
    const links = (
      await c.get(`/api/v4/machine_nics?filter=machine+eq+${vmOn.machine}&fields=enabled,status%23status+as+link,status%23state+as+state`)
    ).body;
    expect(links).toEqual([
      { enabled: true, link: "up", state: "online" },
      { enabled: false, link: "down", state: "offline" },
    ]);
  });

  test("history rows accumulate on the emulator's clock, one per interval, the oldest beyond the kept number dropped", async () => {
    const rows = async () =>
      (await c.get(`/api/v4/machine_stats_history_short?filter=machine+eq+${vmOn.machine}&fields=timestamp,total_cpu&sort=timestamp`)).body;
    const before = await rows();
    c.emu.advanceClock(60_000);
    const after = await rows();
    expect(after.at(-1).timestamp - before.at(-1).timestamp).toBe(60);
    expect([before.length, after.length]).toEqual([360, 360]);
    expect(after.at(-1)).toMatchObject({ total_cpu: 5 });
    expect(after.at(-1).timestamp - after.at(-2).timestamp).toBe(10);
  });
});
