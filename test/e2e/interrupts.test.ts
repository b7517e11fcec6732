// Interrupted runs converge. The engine killed mid-create (SIGKILL of `pulumi up` while drive
// creates are in flight and land after it died), interrupted once (SIGINT: it finishes what is in
// flight and stops) or twice (it exits at once, leaving pending operations), and the emulator
// SIGKILLed mid-`up` and restarted on its --data-dir: each ends, after `pulumi cancel` where needed
// and `up`, with every drive once, none orphaned, no state entry without a row, no pending
// operation, and a clean refresh and preview. CI runs the engine SIGKILL; `npm run
// test:faults:engine` runs them all.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as path from "node:path";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { generate } from "selfsigned";
import { findRepoRoot } from "../../env/local-stack";
import { collect, startE2e, type E2eContext, type E2eEmulator, e2eWorkDir } from "./harness";
import { alive } from "./processes";

const full = process.env.VPLATFORM_FAULT_MATRIX === "full";
const DRIVES = 4;
const programOf =
  (prefix: string): PulumiFn =>
  async () => {
    const vp = require("vplatform");
    const vm = new vp.VirtualMachine("vm", { name: `${prefix}-vm`, ram: 1024, powerState: "stopped" });
    for (let i = 0; i < DRIVES; i++) new vp.Drive(`vm-disk-${i}`, { machine: vm.machineKey, media: "disk", disksize: 1024 ** 3 });
    return { machineKey: vm.machineKey };
  };

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
/** A port nobody listens on now (the restarted emulator must come back on the same one). */
const freePort = () =>
  new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until the platform has seen `n` drive creates; then the `pulumi up` process of this test. */
async function engineOnceDrivesSent(ctx: E2eContext, n = 1): Promise<{ pid: number; cmd: string }> {
  for (let i = 0; i < 600; i++) {
    const counts = await ctx.requestCounts();
    const sent = counts.entries.filter((e) => e.method === "POST" && e.table === "machine_drives").reduce((a, e) => a + e.count, 0);
    if (sent >= n) {
      const engine = children(process.pid).find((c) => /pulumi\b.*\bup\b/.test(c.cmd));
      if (engine) return engine;
    }
    await sleep(100);
  }
  throw new Error("the up never sent a drive create");
}

const driveRows = async (ctx: E2eContext, machine: string) =>
  ((await ctx.api("GET", `/v4/machine_drives?filter=machine%20eq%20${machine}&fields=$key`)).body as { $key: unknown }[])
    .map((r) => String(r.$key))
    .sort();

type StateResource = { type: string; id?: string; outputs?: Record<string, unknown> };
const stateOf = async (ctx: E2eContext) =>
  (await ctx.stack.exportStack()).deployment as { resources?: StateResource[]; pending_operations?: unknown[] };

/**
 * After the interruption: `up` converges (every drive once: the rows the dead run made are taken
 * over by their create markers, none orphaned, no entry without a row); the engine's stale pending
 * creates (they carry no key) are then cleared by a refresh; refresh and preview clean.
 */
async function expectConverged(ctx: E2eContext, prefix: string): Promise<void> {
  const up = await ctx.stack.up(collect(ctx));
  expect(up.summary.result).toBe("succeeded");
  await ctx.stack.refresh({ ...collect(ctx), clearPendingCreates: true });
  const state = await stateOf(ctx);
  expect(state.pending_operations ?? []).toEqual([]);
  const drives = (state.resources ?? []).filter((r) => /:Drive$/.test(r.type));
  expect(drives).toHaveLength(DRIVES);
  expect(await driveRows(ctx, String(up.outputs.machineKey.value))).toEqual(drives.map((d) => String(d.id)).sort());
  expect((await ctx.api("GET", `/v4/vms?filter=name%20eq%20'${prefix}-vm'&fields=$key`)).body).toHaveLength(1);
  const refresh = await ctx.stack.refresh(collect(ctx));
  expect(Object.keys(refresh.summary.resourceChanges ?? {}).filter((k) => k !== "same")).toEqual([]);
  const preview = await ctx.stack.preview(collect(ctx));
  expect(Object.keys(preview.changeSummary).filter((k) => k !== "same")).toEqual([]);
}

describe("SIGKILL of the engine in the middle of creates", () => {
  let ctx: E2eContext;
  beforeAll(async () => {
    ctx = await startE2e("interrupts", programOf("intr"));
  }, 120_000);
  afterAll(async () => ctx?.dispose());

  test("cancel and up converge: every drive once, none orphaned; the dead engine's provider process exits", async () => {
    // Drive creates stall 2 s in the platform, then land: the engine is killed while they are in flight.
    await ctx.fault({ method: "POST", table: "machine_drives", stallMs: 2_000 });
    const run = ctx.stack.up(collect(ctx)).catch((e: Error) => e);
    const engine = await engineOnceDrivesSent(ctx);
    const providers = descendants(engine.pid).filter((c) => /dynamic-provider/.test(c.cmd));
    expect(providers.length).toBeGreaterThan(0);
    process.kill(engine.pid, "SIGKILL");
    expect(await run).toBeInstanceOf(Error);
    await sleep(2_500); // the in-flight creates land meanwhile
    await ctx.clearFaults();

    await ctx.stack.cancel().catch(() => undefined); // the file backend may hold no lock to cancel
    await expectConverged(ctx, "intr");

    // The provider process of the killed engine notices and exits (it probes every 2 s, two misses): within 10 s.
    for (let i = 0; i < 20 && providers.some((p) => alive(p.pid)); i++) await sleep(500);
    expect(providers.filter((p) => alive(p.pid))).toEqual([]);
  }, 300_000);
});

// The slower scenarios run with the full matrix (`npm run test:faults:engine`).
if (full) {
  describe.each([
    ["once", 1],
    ["twice", 2],
  ] as const)("SIGINT %s in the middle of creates", (_label, signals) => {
    let ctx: E2eContext;
    beforeAll(async () => {
      ctx = await startE2e(`sigint-${signals}`, programOf(`sigint${signals}`));
    }, 120_000);
    afterAll(async () => ctx?.dispose());

    test(`the run stops${signals === 1 ? " after the creates in flight, recording them" : " at once"}; (cancel and) up converge`, async () => {
      await ctx.fault({ method: "POST", table: "machine_drives", stallMs: 2_000 });
      const run = ctx.stack.up(collect(ctx)).catch((e: Error) => e);
      const engine = await engineOnceDrivesSent(ctx);
      process.kill(engine.pid, "SIGINT");
      if (signals === 2) {
        await sleep(300);
        process.kill(engine.pid, "SIGINT");
      }
      expect(await run).toBeInstanceOf(Error);
      await sleep(2_500); // whatever was in flight has landed
      await ctx.clearFaults();
      if (signals === 1) {
        // Ctrl-C once lets the creates in flight finish: each drive row is recorded, none orphaned.
        const state = await stateOf(ctx);
        const machine = String(state.resources?.find((r) => /:VirtualMachine$/.test(r.type))?.outputs?.machineKey);
        const recorded = (state.resources ?? []).filter((r) => /:Drive$/.test(r.type)).map((d) => String(d.id));
        expect(await driveRows(ctx, machine)).toEqual(recorded.sort());
      } else {
        await ctx.stack.cancel().catch(() => undefined);
      }
      await expectConverged(ctx, `sigint${signals}`);
    }, 300_000);
  });

  describe("the emulator SIGKILLed in the middle of an up and restarted on its --data-dir", () => {
    let ctx: E2eContext;
    let emulator: ExternalEmulator;
    beforeAll(async () => {
      emulator = await ExternalEmulator.start();
      ctx = await startE2e("emulator-restart", programOf("restart"), emulator);
    }, 120_000);
    afterAll(async () => {
      await ctx?.dispose();
      emulator?.removeData();
    });

    test("the up rides out the restart or the next up converges: no acknowledged row lost, none duplicated, no key reused", async () => {
      // Two drive creates are committed (journaled) at once and answered late: the emulator dies before answering.
      await ctx.fault({ method: "POST", table: "machine_drives", lateMs: 4_000, count: 2 });
      const run = ctx.stack.up(collect(ctx)).then(
        () => undefined,
        (e: Error) => e,
      );
      await engineOnceDrivesSent(ctx, 2);
      await sleep(300);
      emulator.kill();
      await sleep(1_500);
      await emulator.restart();
      await run; // succeeds after the restart, or fails and the next up converges
      await expectConverged(ctx, "restart");
    }, 300_000);
  });
}

/** The emulator in a process of its own, on a fixed port, certificate and --data-dir, so it can be killed and restarted. */
class ExternalEmulator implements E2eEmulator {
  readonly adminUser = "admin";
  readonly adminPassword = "intr-admin-pw";
  private child?: ChildProcess;
  url = "";

  private constructor(
    readonly apiKey: string,
    readonly caCert: string,
    private readonly args: string[],
    private readonly dataDir: string,
  ) {}

  static async start(): Promise<ExternalEmulator> {
    const dir = e2eWorkDir("emulator-");
    const pems = await generate([{ name: "commonName", value: "localhost" }], {
      keyType: "ec",
      curve: "P-256",
      days: 2,
      algorithm: "sha256",
      extensions: [
        { name: "basicConstraints", cA: true },
        { name: "subjectAltName", altNames: [{ type: 7, ip: "127.0.0.1" }] },
      ],
    } as never);
    fs.writeFileSync(path.join(dir, "cert.pem"), pems.cert);
    fs.writeFileSync(path.join(dir, "key.pem"), pems.private);
    const cli = path.join(findRepoRoot(), "dist", "emulator", "cli.js");
    const dataDir = path.join(dir, "data");
    const common = ["--data-dir", dataDir, "--admin-password", "intr-admin-pw"];
    const apiKey = execFileSync(process.execPath, [cli, ...common, "--create-api-key", "interrupts"], { encoding: "utf8" }).trim();
    const args = [
      cli,
      ...common,
      "--port",
      String(await freePort()),
      "--time-scale",
      "0.01",
      "--cert",
      path.join(dir, "cert.pem"),
      "--key",
      path.join(dir, "key.pem"),
    ];
    const emulator = new ExternalEmulator(apiKey, pems.cert, args, dir);
    await emulator.spawn();
    return emulator;
  }

  /** Starts the process; resolves once it listens (it prints its URL). */
  private spawn(): Promise<void> {
    const child = spawn(process.execPath, this.args, { stdio: ["ignore", "pipe", "inherit"] });
    this.child = child;
    return new Promise((resolve, reject) => {
      let out = "";
      child.stdout!.on("data", (d: Buffer) => {
        out += d.toString();
        if (!out.includes("\n")) return;
        this.url = out.trim().split("\n")[0];
        resolve();
      });
      child.once("exit", (code) => reject(new Error(`the emulator exited (${code}) before it listened`)));
    });
  }

  kill(): void {
    this.child?.kill("SIGKILL");
  }

  restart(): Promise<void> {
    return this.spawn();
  }

  async close(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
  }

  removeData(): void {
    fs.rmSync(this.dataDir, { recursive: true, force: true });
  }
}
