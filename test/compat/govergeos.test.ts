/**
 * Issue 12's compatibility suite: the maker's Go client (govergeos, version pinned in go.mod) runs
 * its own flows against an emulator started here — a VM with disk, cdrom and NIC, power on/off,
 * snapshot and restore, a network created, powered on and its rules applied, nodes, cluster status
 * and a migration (test/compat/govergeos_test.go, one Go test per flow). The client polls every
 * 5 s, so the emulator runs at time scale 0.001: every transition is over before the first poll.
 * Needs Go (the engine's build needs it too); the module comes from the Go module proxy.
 */
import { spawn } from "node:child_process";
import { startEmulator, type RunningEmulator } from "../../emulator";

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator({ timeScale: 0.001, quiet: true });
}, 60_000);
afterAll(() => emu.close());

/** Runs `go test` without blocking this process's event loop (the emulator answers from it). */
function goTest(env: Record<string, string>): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("go", ["test", "-count=1", "-parallel=8", "-v", "./..."], { cwd: __dirname, env: { ...process.env, ...env } });
    let output = "";
    child.stdout.on("data", (c) => (output += c));
    child.stderr.on("data", (c) => (output += c));
    const timer = setTimeout(() => child.kill("SIGKILL"), 280_000);
    child.on("error", reject);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, output });
    });
  });
}

describe("the maker's Go client runs unchanged against the emulator", () => {
  test("every flow of govergeos_test.go passes", async () => {
    const run = await goTest({ VPLATFORM_COMPAT_URL: emu.url, VPLATFORM_COMPAT_API_KEY: emu.apiKey });
    const output = run.output;
    const results = output.split("\n").filter((line) => /^(---|ok|FAIL|PASS)/.test(line.trim()));
    process.stdout.write(`govergeos compatibility:\n${results.join("\n")}\n`);
    if (run.status !== 0) throw new Error(`go test failed (exit ${run.status}):\n${output}`);
    expect(results.filter((line) => line.includes("--- PASS")).length).toBe(5);
  }, 300_000);
});
