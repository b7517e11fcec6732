/**
 * The command line's snapshot and replay commands (the built CLI, as users run it): snapshots of a
 * stopped emulator's data directory (refused while one runs on it), and a recording replayed against a running emulator.
 */
import { execFile, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { connect } from "node:net";
import { join } from "node:path";
import { startTestEmulator } from "./helpers";

const CLI = join(__dirname, "../../dist/emulator/cli.js");
jest.setTimeout(60_000);

/** Runs the CLI without blocking this process (the replay target serves from it). */
function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], (error, out, err) => resolve({ code: error ? Number(error.code) : 0, out, err }));
  });
}

const scratch = () => mkdtempSync(join(tmpdir(), "emu-cli-"));

describe("vplatform-emulator snapshot save|load|list", () => {
  test("saves a stopped emulator's state, lists it, and loads it into another data directory", async () => {
    const source = scratch();
    const snapshots = scratch();
    expect((await cli("--data-dir", source, "--create-api-key", "made-before-the-save")).code).toBe(0);
    const saved = await cli("snapshot", "save", "base", "--data-dir", source, "--snapshot-dir", snapshots);
    expect([saved.code, saved.out.trim()]).toEqual([0, join(snapshots, "base.json")]);
    expect((await cli("snapshot", "list", "--snapshot-dir", snapshots)).out).toMatch(/^base\t\d+ bytes\t/);

    const target = scratch();
    const loaded = await cli("snapshot", "load", "base", "--data-dir", target, "--snapshot-dir", snapshots);
    expect([loaded.code, loaded.out]).toEqual([0, `${target}: state replaced by snapshot 'base'\n`]);
    const again = await cli("snapshot", "save", "copy", "--data-dir", target, "--snapshot-dir", snapshots);
    expect(again.code).toBe(0);
  });

  test("a missing snapshot or name is refused with the reason, exit 2", async () => {
    const dir = scratch();
    const missing = await cli("snapshot", "load", "nope", "--data-dir", dir);
    expect([missing.code, missing.err]).toEqual([2, expect.stringMatching(/snapshot 'nope' not found/)]);
    expect((await cli("snapshot", "save", "--data-dir", dir)).err).toMatch(/needs a NAME/);
    expect((await cli("snapshot", "save", "x")).err).toMatch(/needs --data-dir/);
  });
});

describe("offline writes refuse a data directory an emulator is running on", () => {
  test("snapshot load and save and --create-api-key name the running emulator's pid and what to do; after it stops they work", async () => {
    const dataDir = scratch();
    const snapshots = scratch();
    const running = await startTestEmulator({ dataDir, snapshotDir: snapshots });
    try {
      await running.post("/api/v4/vnets", { name: "kept" });
      expect((await running.post("/_emulator/snapshots", { name: "base" })).status).toBe(201);
      expect(JSON.parse(readFileSync(join(dataDir, "running.json"), "utf8"))).toEqual({ pid: process.pid, url: running.emu.url });

      const load = await cli("snapshot", "load", "base", "--data-dir", dataDir, "--snapshot-dir", snapshots);
      expect([load.code, load.out]).toEqual([2, ""]);
      expect(load.err).toContain(`in use by the emulator running with pid ${process.pid} (${running.emu.url})`);
      expect(load.err).toContain(`Stop it first (kill ${process.pid})`);
      expect(load.err).toContain(`POST ${running.emu.url}/_emulator/snapshots/base/load`);
      // Its directory holds what it last flushed, not its state: a save is refused too, naming the way that works.
      const save = await cli("snapshot", "save", "later", "--data-dir", dataDir, "--snapshot-dir", snapshots);
      expect([save.code, save.out]).toEqual([2, ""]);
      expect(save.err).toContain(`POST ${running.emu.url}/_emulator/snapshots {"name": "later"}`);
      const key = await cli("--data-dir", dataDir, "--create-api-key", "offline");
      expect([key.code, key.out]).toEqual([2, ""]);
      expect(key.err).toContain(`pid ${process.pid}`);
      await expect(startTestEmulator({ dataDir })).rejects.toThrow(/cannot start a second emulator on it/);
    } finally {
      await running.emu.close();
    }
    expect(existsSync(join(dataDir, "running.json"))).toBe(false);
    expect((await cli("snapshot", "load", "base", "--data-dir", dataDir, "--snapshot-dir", snapshots)).code).toBe(0);
  });

  test("a mark left by an emulator that was killed is stale and ignored", async () => {
    const dataDir = scratch();
    const gone = spawnSync(process.execPath, ["-e", ""]).pid;
    writeFileSync(join(dataDir, "running.json"), JSON.stringify({ pid: gone, url: "https://127.0.0.1:1" }));
    const key = await cli("--data-dir", dataDir, "--create-api-key", "after-a-kill");
    expect([key.code, key.err]).toEqual([0, ""]);
  });
});

describe("started with & from a script (the README's offline block)", () => {
  test("it stops when the shell that started it exits", async () => {
    const dir = scratch();
    const urlFile = join(dir, "url");
    // The shell starts it in the background and exits as soon as it prints its URL.
    spawnSync(
      "bash",
      [
        "-c",
        `"${process.execPath}" "${CLI}" --port 0 --admin-password s3cret > "${urlFile}" & while [ ! -s "${urlFile}" ]; do sleep 0.1; done`,
      ],
      {
        timeout: 30_000,
      },
    );
    const url = new URL(readFileSync(urlFile, "utf8").trim());
    const accepts = () =>
      new Promise<boolean>((resolve) => {
        const socket = connect(Number(url.port), url.hostname, () => socket.end(() => resolve(true)));
        socket.on("error", () => resolve(false));
      });
    for (let i = 0; i < 100 && (await accepts()); i++) await new Promise((r) => setTimeout(r, 100));
    expect(await accepts()).toBe(false);
  });
});

describe("vplatform-emulator replay FILE --target URL --api-key KEY", () => {
  test("reports no difference against an emulator that answers alike, and each difference with exit 1", async () => {
    const file = join(scratch(), "requests.jsonl");
    const source = await startTestEmulator({ record: file });
    const target = await startTestEmulator();
    const ca = join(scratch(), "ca.pem");
    writeFileSync(ca, target.emu.caCert);
    try {
      await source.post("/api/v4/vnets", { name: "replayed" });
      await source.get("/api/v4/vnets?fields=name");
      const args = ["replay", file, "--target", target.emu.url, "--api-key", target.emu.apiKey, "--ca", ca];
      expect(await cli(...args)).toMatchObject({ code: 0, out: "0 of 2 answers differ\n" });
      const second = await cli(...args);
      expect([second.code, second.out]).toEqual([1, "#1 POST /api/v4/vnets\n  status: 201 ≠ 409\n1 of 2 answers differ\n"]);
    } finally {
      await source.emu.close();
      await target.emu.close();
    }
  });
});
