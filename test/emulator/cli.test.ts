/**
 * The command line's snapshot and replay commands (the built CLI, as users run it): snapshots of a
 * stopped emulator's data directory, and a recording replayed against a running emulator.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
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
