/**
 * The maker's Python client, pyVergeOS (from PyPI at the version scripts/env.sh pins, in the virtualenv its set-up
 * makes: VPLATFORM_PYVERGEOS_PYTHON), runs the flows of test/compat/pyvergeos/flows.py unchanged against an
 * emulator started here: system statistics and inventory, nodes, users, API keys, groups, networks powered on with
 * rules applied, a VM with drive, NIC and TPM powered on and off, tags, webhooks, tasks, NAS, deletes.
 */
import { execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator";

const flowsFile = path.join(__dirname, "pyvergeos", "flows.py");
let emu: RunningEmulator;
let tmp: string;
let run: { status: number | null; output: string };

/** Runs flows.py without blocking this process's event loop (the emulator answers from it). */
function flows(python: string, env: Record<string, string>, args: string[]): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(python, [flowsFile, ...args], { env: { ...process.env, ...env } });
    let output = "";
    child.stdout.on("data", (c) => (output += c));
    child.stderr.on("data", (c) => (output += c));
    const timer = setTimeout(() => child.kill("SIGKILL"), 240_000);
    child.on("error", reject);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, output });
    });
  });
}

beforeAll(async () => {
  const python = process.env.VPLATFORM_PYVERGEOS_PYTHON;
  if (!python || !fs.existsSync(python)) throw new Error("pyvergeos is not installed: run `source scripts/env.sh` (ensure_pyvergeos)");
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pyvergeos-"));
  fs.mkdirSync(path.join(tmp, "data"));
  emu = await startEmulator({ timeScale: 0.001, quiet: true, volumes: { data: path.join(tmp, "data") } });
  fs.writeFileSync(path.join(tmp, "ca.pem"), emu.caCert);
  run = await flows(python, { REQUESTS_CA_BUNDLE: path.join(tmp, "ca.pem") }, [new URL(emu.url).host, emu.adminPassword]);
  process.stdout.write(`pyVergeOS compatibility:\n${run.output}\n`);
}, 300_000);
afterAll(async () => {
  await emu?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe("the maker's Python client runs unchanged against the emulator", () => {
  test("it is the pinned release from PyPI", () => {
    const python = process.env.VPLATFORM_PYVERGEOS_PYTHON ?? "";
    const shown = execFileSync(python, ["-c", "import importlib.metadata as m; print(m.version('pyvergeos'))"]);
    expect(shown.toString().trim()).toBe("1.7.1");
  });

  test("every flow of flows.py passes (a failure is named by its flow)", () => {
    const lines = run.output.split("\n");
    const failed = lines.filter((l) => l.startsWith("FAIL"));
    expect(failed).toEqual([]);
    // Every check() of the file reported: none lost to a crash of the script.
    const checks = (fs.readFileSync(flowsFile, "utf8").match(/^\s*check\(/gm) ?? []).length;
    expect(lines.filter((l) => l.startsWith("PASS")).length).toBe(checks);
    expect(run.status).toBe(0);
  });
});
