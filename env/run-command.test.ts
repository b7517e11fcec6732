import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseCliArgs } from "./cli-args";
import { EXIT, runEnvironmentCommand } from "./run-command";

/** Runs the CLI on a file in a temporary directory; the engine is never reached for these. */
async function run(argv: string[], files: Record<string, string>, env: NodeJS.ProcessEnv = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "envcli-"));
  try {
    for (const [name, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), text);
    }
    const parsed = parseCliArgs(argv);
    if (!parsed.ok) throw new Error(parsed.message);
    const out: string[] = [];
    const err: string[] = [];
    const code = await runEnvironmentCommand(parsed.args, { stdout: (s) => out.push(s), stderr: (s) => err.push(s) }, env, dir);
    return { code, stdout: out.join(""), stderr: err.join(""), stateCreated: fs.existsSync(path.join(dir, ".vplatform")) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe("an invalid environment file stops the CLI before anything is sent", () => {
  test.each(["preview", "up", "drift"])("%s reports file:line:col: path: message and exits 3", async (command) => {
    const r = await run([command, "environments/dev.yaml", "--stack", "dev"], {
      "environments/dev.yaml": "vms:\n  - name: web\n    ram: 128\n",
    });
    expect(r.code).toBe(EXIT.invalid);
    expect(r.stderr).toBe("environments/dev.yaml:3:10: vms[0].ram: RAM must be at least 512 MB\n");
    expect(r.stdout).toBe("");
    expect(r.stateCreated).toBe(false);
  });

  test("a missing file is named", async () => {
    const r = await run(["preview", "environments/nope.yaml", "--stack", "dev"], {});
    expect(r).toMatchObject({ code: EXIT.invalid, stderr: "environments/nope.yaml: no such file\n" });
  });
});

describe("without the Pulumi CLI the CLI says so, on stdout as well (what a pull request comment shows)", () => {
  const saved = process.env.VPLATFORM_PULUMI_ROOT;
  let noEngine: string;
  beforeAll(() => {
    noEngine = fs.mkdtempSync(path.join(os.tmpdir(), "no-engine-"));
    process.env.VPLATFORM_PULUMI_ROOT = noEngine;
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.VPLATFORM_PULUMI_ROOT;
    else process.env.VPLATFORM_PULUMI_ROOT = saved;
    fs.rmSync(noEngine, { recursive: true, force: true });
  });

  test("a backend URL's password is shown as *** in every line and report, text and Markdown", async () => {
    const env = { PULUMI_BACKEND_URL: "postgres://pulumi:s3cret-pw@127.0.0.1:1/state" };
    for (const format of [[], ["--markdown"], ["--json"]]) {
      const r = await run(
        ["preview", "environments/dev.yaml", "--stack", "dev", ...format],
        { "environments/dev.yaml": "vms:\n  - name: web\n" },
        env,
      );
      expect(r.stderr).toContain("state in postgres://pulumi:***@127.0.0.1:1/state");
      expect(r.stdout + r.stderr).not.toContain("s3cret-pw");
    }
  });

  test("preview exits 1 with 'the Pulumi CLI was not found' and how to install it, and no 'Plan: no changes'", async () => {
    const r = await run(["preview", "environments/dev.yaml", "--stack", "dev"], { "environments/dev.yaml": "vms:\n  - name: web\n" });
    expect(r.code).toBe(EXIT.error);
    expect(r.stderr).toContain(`the Pulumi CLI was not found: VPLATFORM_PULUMI_ROOT has no bin/pulumi (${noEngine})`);
    expect(r.stdout).toContain("Plan: FAILED (see Errors)\n");
    expect(r.stdout).toMatch(/Errors:\n +x the Pulumi CLI was not found: .*install it/);
    expect(r.stdout).not.toContain("no changes");
    expect(r.stdout).not.toContain("ENOENT");
  });
});
