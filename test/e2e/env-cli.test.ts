// `vplatform env ...` (the compiled CLI, as a user runs it) on an environment
// file in a temporary directory outside the repository, under the real engine
// against the emulator: preview, up, drift, refresh, destroy and their exit codes.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { findRepoRoot } from "../../env/local-stack";
import { type Run, layStockProject, runProgram, shown } from "./teamRepo";
import { startPostgres, type RunningPostgres } from "./postgres";

const cli = path.join(findRepoRoot(), "dist", "env", "cli.js");
let emulator: RunningEmulator;
let postgres: RunningPostgres;
let repo: string;

const ENVIRONMENT = `# the team's dev environment
vnets:
  - name: team-net
    network: 10.40.0.0/24
vms:
  - name: team-web
    cpuCores: 2
    ram: 2048
    powerState: running
    consolePassHash: console-hash-never-shown
    drives:
      - name: os
        media: disk
        disksize: 10GiB
    nics:
      - vnet: team-net
`;

/** Runs the CLI in the team's repository with only the environment a CI job would give it. */
const vplatform = (...args: string[]): Promise<Run> => vplatformWith({}, ...args);

/** The same, with some variables of the job changed. */
function vplatformWith(changed: Record<string, string>, ...args: string[]): Promise<Run> {
  const keep = ["PATH", "HOME", "VPLATFORM_PULUMI_ROOT", "NODE_OPTIONS"];
  const env = {
    ...Object.fromEntries(keep.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]!])),
    PULUMI_HOME: path.join(repo, ".pulumi-home"),
    VPLATFORM_ENDPOINT: emulator.url,
    VPLATFORM_API_KEY: emulator.apiKey,
    VPLATFORM_CA_CERT: emulator.caCert,
    ...changed,
  };
  return runProgram(process.execPath, [cli, "env", ...args], { cwd: repo, env });
}

async function api(method: string, apiPath: string, body?: unknown): Promise<any> {
  const { default: got } = await import("got");
  return got(`${emulator.url}/api${apiPath}`, {
    method: method as "GET",
    headers: { authorization: `Bearer ${emulator.apiKey}` },
    https: { certificateAuthority: emulator.caCert },
    json: body,
  }).json();
}
/**
 * Sets a bookkeeping input of the recorded drive, as a run that stopped between
 * a VM and its hardware, or an `up --target` of the VM alone, leaves it: the
 * state is the local file backend's JSON.
 */
function recordDrivePolicy(policy: string): void {
  const file = path.join(repo, ".vplatform", "state", ".pulumi", "stacks", "vplatform-env", "dev.json");
  const state = JSON.parse(fs.readFileSync(file, "utf8"));
  const drives = state.checkpoint.latest.resources.filter((r: { type: string }) => r.type.endsWith(":Drive"));
  expect(drives).toHaveLength(1);
  for (const bag of [drives[0].inputs, drives[0].outputs]) bag.powerCyclePolicy = policy;
  fs.writeFileSync(file, JSON.stringify(state));
}

const vms = () => api("GET", "/v4/vms?fields=$key,name,ram,machine%23status%23status%20as%20status&filter=is_snapshot%20eq%20false");

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, timeScale: 0.01, quiet: true });
  postgres = await startPostgres();
  repo = fs.mkdtempSync(path.join(os.tmpdir(), "team-gitops-"));
  fs.mkdirSync(path.join(repo, "environments"));
  fs.writeFileSync(path.join(repo, "environments", "dev.yaml"), ENVIRONMENT);
}, 120_000); // a PostgreSQL cluster's initdb takes more than jest's 5 s default on 2 busy cores
afterAll(async () => {
  await emulator?.close();
  await postgres?.stop();
  if (repo) fs.rmSync(repo, { recursive: true, force: true });
});

describe("vplatform env provisions an environment file from the team's own repository", () => {
  test("preview, up, drift after a change on the platform, up again, refresh, destroy: the local default backend", async () => {
    const file = "environments/dev.yaml";

    const preview = await vplatform("preview", file, "--stack", "dev", "--json");
    expect(preview.code).toBe(0);
    const plan = JSON.parse(preview.stdout);
    expect(plan).toMatchObject({ command: "preview", result: "changes", exitCode: 0 });
    expect(plan.plan.changes.map((c: { action: string; type: string; name: string }) => `${c.action} ${c.type} ${c.name}`).sort()).toEqual([
      "create Drive team-web-drive-os",
      "create Nic team-web-nic-0",
      "create VirtualMachine team-web",
      "create VmPower team-web-power",
      "create Vnet team-net",
    ]);
    expect(await vms()).toEqual([]);
    // The provider's bookkeeping inputs are kept apart from the declared fields.
    const drive = plan.plan.changes.find((c: { type: string }) => c.type === "Drive");
    expect(drive.fields.map((f: { field: string }) => f.field)).toEqual(["disksize", "interface", "machine", "media", "name"]);
    expect(drive.bookkeeping.map((f: { field: string }) => f.field)).toEqual(expect.arrayContaining(["__marker", "vm"]));
    // Secret inputs are masked in the plan (it is posted on pull requests).
    expect(plan.plan.changes.find((c: { type: string }) => c.type === "VirtualMachine").fields).toContainEqual({
      field: "consolePassHash",
      after: "[secret]",
    });
    expect(preview.stdout + preview.stderr).not.toContain("console-hash-never-shown");
    // The local default backend, in the working directory; nothing else is written there.
    // With no sidecar a kill could leave half-written (env/file-state.ts).
    expect(preview.stderr).toMatch(/state in file:\/\/.*\.vplatform\/state\?metadata=skip \(local default/);
    expect(fs.readdirSync(repo).sort()).toEqual([".pulumi-home", ".vplatform", "environments"]);

    const up = await vplatform("up", file, "--stack", "dev");
    expect(up.code).toBe(0);
    expect(up.stdout).toContain("Applied: 5 to create, 0 to update, 0 to replace, 0 to delete");
    expect(up.stdout + up.stderr).not.toContain("console-hash-never-shown");
    expect(await vms()).toEqual([{ $key: expect.anything(), name: "team-web", ram: 2048, status: "running" }]);
    const stateFiles = (d: string): string[] =>
      fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? stateFiles(path.join(d, e.name)) : [e.name]));
    expect(stateFiles(path.join(repo, ".vplatform", "state")).filter((f) => f.endsWith(".attrs"))).toEqual([]);

    // Right after the up (no refresh since): its VmPower started the VM after the create recorded it stopped, and
    // a team that refuses restarts is refused the RAM change in the plan, in the CLI's own words.
    fs.writeFileSync(path.join(repo, file), ENVIRONMENT.replace("    ram: 2048\n", "    ram: 4096\n    powerCyclePolicy: refuse\n"));
    const refusedAtOnce = await vplatform("preview", file, "--stack", "dev");
    fs.writeFileSync(path.join(repo, file), ENVIRONMENT);
    expect(refusedAtOnce.code).toBe(1);
    expect(refusedAtOnce.stdout).toMatch(
      /ram 2048 → 4096 needs a power cycle of VM 'team-web' and powerCyclePolicy is 'refuse'.*\(judged running, as the file declares it; run `vplatform env refresh`/,
    );
    expect(refusedAtOnce.stdout + refusedAtOnce.stderr).not.toContain("pulumi refresh");

    // Only a bookkeeping input differs (as an `up --target` of the VM alone leaves it): no change, no drift.
    recordDrivePolicy("refuse");
    const bookkeeping = await vplatform("drift", file, "--stack", "dev");
    expect(bookkeeping.code).toBe(0);
    expect(bookkeeping.stdout).not.toContain("Drive");
    expect(bookkeeping.stdout).toContain("No drift: the platform matches the file.\n");

    // Someone changes the VM on the platform, outside Pulumi.
    const [vm] = await vms();
    await api("PUT", `/v4/vms/${vm.$key}`, { ram: 4096 });
    const drift = await vplatform("drift", file, "--stack", "dev", "--json");
    expect(drift.code).toBe(2);
    const report = JSON.parse(drift.stdout);
    expect(report).toMatchObject({ result: "drift", exitCode: 2 });
    expect(report.plan.changes).toEqual([
      expect.objectContaining({ action: "update", name: "team-web", fields: [{ field: "ram", before: 4096, after: 2048 }] }),
    ]);
    expect(report.plan.outside).toEqual([
      expect.objectContaining({ name: "team-web", fields: [{ field: "ram", before: 2048, after: 4096 }] }),
    ]);
    expect(report.plan.warnings.join("\n")).toMatch(/needs a power cycle of VM 'team-web'/);
    // The drift check changed nothing.
    expect((await vms())[0].ram).toBe(4096);

    // up reads the platform first, so it reverts the change: it converges.
    const again = await vplatform("up", file, "--stack", "dev");
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("Applied: 0 to create, 1 to update, 0 to replace, 0 to delete");
    expect((await vms())[0]).toMatchObject({ ram: 2048, status: "running" });
    const clean = await vplatform("drift", file, "--stack", "dev");
    expect(clean.code).toBe(0);
    expect(clean.stdout).toContain("Drift (platform vs file): no changes");
    expect(clean.stdout).toContain("No drift: the platform matches the file.\n");

    const refresh = await vplatform("refresh", file, "--stack", "dev");
    expect(refresh.code).toBe(0);
    expect(refresh.stdout).toContain("Refreshed: 0 resource(s) changed on the platform outside Pulumi");

    // A team that refuses restarts: a RAM change of the running VM fails the plan, not the `up` after the merge.
    fs.writeFileSync(path.join(repo, file), ENVIRONMENT.replace("    ram: 2048\n", "    ram: 4096\n    powerCyclePolicy: refuse\n"));
    const refused = await vplatform("preview", file, "--stack", "dev");
    fs.writeFileSync(path.join(repo, file), ENVIRONMENT);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain("Plan: FAILED (see Errors)");
    expect(refused.stdout).toMatch(/x .*ram 2048 → 4096 needs a power cycle of VM 'team-web' and powerCyclePolicy is 'refuse'/);
    expect((await vms())[0]).toMatchObject({ ram: 2048, status: "running" });

    const destroy = await vplatform("destroy", file, "--stack", "dev");
    expect(destroy.code).toBe(0);
    expect(destroy.stdout).toContain("0 to create, 0 to update, 0 to replace, 5 to delete");
    expect(await vms()).toEqual([]);
    expect(await api("GET", "/v4/vnets?filter=name%20eq%20'team-net'")).toEqual([]);
  }, 600_000);

  test("the same kind of file with the stock pulumi commands, state in PostgreSQL: a three-line project whose program is the package's runner", async () => {
    // The team's repository with vplatform installed (here: linked) and a Pulumi project naming env/main.js.
    layStockProject(repo);
    // environments/<stack>.yaml, with the stack's overlay applied.
    fs.writeFileSync(
      path.join(repo, "environments", "qa.yaml"),
      "vms:\n  - { name: qa-web, cpuCores: 1, ram: 1024 }\nstacks:\n  qa:\n    vms:\n      qa-web: { ram: 3072 }\n",
    );
    const env = {
      ...process.env,
      PULUMI_HOME: path.join(repo, ".pulumi-home"),
      PULUMI_BACKEND_URL: postgres.url,
      PULUMI_CONFIG_PASSPHRASE: "",
      VPLATFORM_ENDPOINT: emulator.url,
      VPLATFORM_API_KEY: emulator.apiKey,
      VPLATFORM_CA_CERT: emulator.caCert,
    };
    const engine = path.join(process.env.VPLATFORM_PULUMI_ROOT ?? path.join(findRepoRoot(), ".tools", "pulumi"), "bin", "pulumi");
    const pulumi = (...args: string[]) =>
      shown(
        postgres.password,
        `pulumi ${args.join(" ")}`,
        runProgram(engine, [...args, "--stack", "qa", "--non-interactive"], { cwd: repo, env }),
      );
    try {
      expect(await pulumi("stack", "init")).toMatchObject({ code: 0 });
      expect(await pulumi("up", "--yes", "--skip-preview")).toMatchObject({ code: 0, stderr: "" });
      expect((await vms()).find((vm: { name: string }) => vm.name === "qa-web")).toMatchObject({ ram: 3072 });
      expect(await pulumi("preview", "--expect-no-changes")).toMatchObject({ code: 0 });
      expect(await pulumi("destroy", "--yes", "--skip-preview")).toMatchObject({ code: 0 });
      expect(await vms()).toEqual([]);
    } finally {
      for (const f of ["Pulumi.yaml", "Pulumi.qa.yaml", "node_modules"]) fs.rmSync(path.join(repo, f), { recursive: true, force: true });
    }
  }, 600_000);

  describe("users and API keys by name, one stack", () => {
    let up: Run;
    test("up --json: the password shows as [secret], the user and its key are made", async () => {
      const file =
        "users:\n  - name: env-ci\n    role: vmoperator\n    password: env-ci-pw-never-shown\napiKeys:\n  - name: env-ci-key\n    user: env-ci\n";
      fs.writeFileSync(path.join(repo, "environments", "keys.yaml"), file);
      up = await vplatform("up", "environments/keys.yaml", "--stack", "keys", "--json");
      expect(up.code).toBe(0);
      const created = JSON.parse(up.stdout).plan.changes;
      expect(created.map((c: { type: string; name: string }) => `${c.type} ${c.name}`).sort()).toEqual([
        "ApiKey env-ci-key",
        "User env-ci",
      ]);
      const user = created.find((c: { type: string }) => c.type === "User");
      expect(user.fields).toContainEqual({ field: "password", after: "[secret]" });
      const [row] = await api("GET", "/v4/users?filter=name%20eq%20'env-ci'&fields=$key");
      expect(await api("GET", `/v4/user_api_keys?filter=user%20eq%20${row.$key}&fields=name`)).toEqual([{ name: "env-ci-key" }]);
    }, 300_000);

    test("`outputs` prints the stack's outputs as JSON: a key's secret as [secret], in clear with --show-secrets only", async () => {
      const masked = await vplatform("outputs", "environments/keys.yaml", "--stack", "keys");
      expect(masked.code).toBe(0);
      expect(masked.stdout + masked.stderr).not.toMatch(/vpk_\w+/);
      expect(JSON.stringify(JSON.parse(masked.stdout).apiKeys)).toContain("[secret]");
      const shown = await vplatform("outputs", "environments/keys.yaml", "--stack", "keys", "--show-secrets");
      expect(shown.code).toBe(0);
      const secret: string = JSON.parse(shown.stdout).apiKeys["env-ci-key"].secret;
      expect(secret).toMatch(/^vpk_\w+/);
      // The secret shown is a key that works: the platform answers a request made with it.
      const { default: got } = await import("got");
      const answer = await got(`${emulator.url}/api/v4/vms?fields=$key`, {
        headers: { authorization: `Bearer ${secret}` },
        https: { certificateAuthority: emulator.caCert },
      });
      expect(answer.statusCode).toBe(200);
      expect((await vplatform("outputs", "environments/keys.yaml", "--stack", "never-made")).code).toBe(3);
    }, 300_000);

    test("neither up nor destroy ever prints the password or a key's secret", async () => {
      const destroy = await vplatform("destroy", "environments/keys.yaml", "--stack", "keys", "--json");
      expect(destroy.code).toBe(0);
      for (const run of [up, destroy]) {
        expect(run.stdout + run.stderr).not.toContain("env-ci-pw-never-shown");
        expect(run.stdout + run.stderr).not.toMatch(/vpk_\w+/); // the emulator's key secrets
      }
    }, 300_000);
  });

  test("a `pulumi login` made for other work is not followed: the stack goes to the local default, and stderr names the login it ignored", async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-home-"));
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), "ts-work-state-"));
    try {
      const login = `file://${elsewhere}`;
      fs.writeFileSync(path.join(home, "credentials.json"), JSON.stringify({ current: login, accounts: { [login]: {} } }));
      fs.writeFileSync(path.join(repo, "environments", "login.yaml"), "vnets:\n  - { name: login-net, network: 10.41.0.0/24 }\n");
      const r = await vplatformWith({ PULUMI_HOME: home }, "preview", "environments/login.yaml", "--stack", "login");
      expect(r.code).toBe(0);
      expect(r.stderr).toContain(`(local default: set PULUMI_BACKEND_URL for a shared one; not ${login} of \`pulumi login\``);
      expect(fs.readdirSync(elsewhere)).toEqual([]);
      expect(fs.existsSync(path.join(repo, ".vplatform", "state", ".pulumi", "stacks", "vplatform-env", "login.json"))).toBe(true);
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  }, 120_000);

  test("a mistyped stack is refused, not made, by destroy, refresh and drift: exit 3 naming --stack and the backend", async () => {
    const stacks = path.join(repo, ".vplatform", "state", ".pulumi", "stacks", "vplatform-env");
    const before = fs.existsSync(stacks) ? fs.readdirSync(stacks).sort() : [];
    for (const command of ["destroy", "refresh", "drift"]) {
      const r = await vplatform(command, "environments/dev.yaml", "--stack", "ghost");
      expect({ command, code: r.code, stdout: r.stdout }).toEqual({ command, code: 3, stdout: "" });
      expect(r.stderr).toContain("error: --stack ghost: no such stack of project 'vplatform-env' in file://");
      expect(r.stderr).toContain("nothing was run");
    }
    expect(fs.existsSync(stacks) ? fs.readdirSync(stacks).sort() : []).toEqual(before);
  }, 120_000);

  test("an invalid file exits 3 with file:line:col and sends nothing", async () => {
    fs.writeFileSync(path.join(repo, "environments", "broken.yaml"), "vms:\n  - name: web\n    ram: 128\n");
    const r = await vplatform("up", "environments/broken.yaml", "--stack", "broken");
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("environments/broken.yaml:3:10: vms[0].ram: RAM must be at least 512 MB");
    expect((await vms()).filter((vm: { name: string }) => vm.name === "web")).toEqual([]);
  }, 60_000);

  test("a reference to a vnet or VM neither declared nor on the platform fails the preview at its file:line:col, with no stack trace, sending nothing", async () => {
    fs.writeFileSync(
      path.join(repo, "environments", "typo.yaml"),
      "vnets:\n  - { name: lab, network: 10.21.0.0/24 }\nvms:\n  - name: web\n    cloneFrom: { vm: golden }\n    nics: [{ vnet: labb }]\n",
    );
    const before = await api("GET", "/v4/vnets?fields=$key");
    const r = await vplatform("preview", "environments/typo.yaml", "--stack", "typo");
    expect(r.code).toBe(1);
    const output = r.stdout + r.stderr;
    expect(output).toContain(
      "environments/typo.yaml:5:22: vms[0].cloneFrom.vm: no VM named 'golden' is declared in this file or exists on the platform",
    );
    expect(output).toContain("environments/typo.yaml:6:20: vms[0].nics[0].vnet: no vnet named 'labb' is declared in this file");
    expect(output).not.toMatch(/Unhandled exception|\n\s+at .*\.js:\d+/);
    expect(await api("GET", "/v4/vnets?fields=$key")).toEqual(before);
  }, 120_000);

  describe("a platform that takes the connection and never answers: one request timeout, then an error naming the endpoint", () => {
    // A file naming a vnet it does not declare: the program looks it up before anything is declared.
    const LOOKUP = "vms:\n  - { name: probe, nics: [{ vnet: existing-net }] }\n";
    const expectNamed = (output: string, endpoint: string, started: number) => {
      expect(output).toContain(
        `${endpoint} accepted the connection but never answered within 5 s (VPLATFORM_REQUEST_TIMEOUT_MS): check VPLATFORM_ENDPOINT`,
      );
      expect(output).not.toMatch(/\n\s+at .*:\d+|Unhandled exception/);
      // One request's 5 s and the engine's start, not the retries' minute.
      expect((Date.now() - started) / 1000).toBeLessThan(40);
    };

    test("a server that accepts and says nothing", async () => {
      fs.writeFileSync(path.join(repo, "environments", "lookup.yaml"), LOOKUP);
      const silent = net.createServer(() => undefined);
      await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
      const endpoint = `https://127.0.0.1:${(silent.address() as net.AddressInfo).port}`;
      try {
        const started = Date.now();
        const r = await vplatformWith(
          { VPLATFORM_ENDPOINT: endpoint, VPLATFORM_REQUEST_TIMEOUT_MS: "5000" },
          "preview",
          "environments/lookup.yaml",
          "--stack",
          "silent",
        );
        expect(r.code).toBe(1);
        expectNamed(r.stdout + r.stderr, endpoint, started);
      } finally {
        silent.close();
      }
    }, 120_000);

    test("the emulator guide's in-process emulator, and the CLI called synchronously: its event loop never turns", () => {
      fs.writeFileSync(path.join(repo, "environments", "lookup.yaml"), LOOKUP);
      const keep = ["PATH", "HOME", "VPLATFORM_PULUMI_ROOT", "NODE_OPTIONS"];
      const env = {
        ...Object.fromEntries(keep.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]!])),
        PULUMI_HOME: path.join(repo, ".pulumi-home"),
        VPLATFORM_ENDPOINT: emulator.url,
        VPLATFORM_API_KEY: emulator.apiKey,
        VPLATFORM_CA_CERT: emulator.caCert,
        VPLATFORM_REQUEST_TIMEOUT_MS: "5000",
      };
      const started = Date.now();
      const r = spawnSync(process.execPath, [cli, "env", "preview", "environments/lookup.yaml", "--stack", "sync"], {
        cwd: repo,
        env,
        encoding: "utf8",
        timeout: 100_000,
      });
      expect(r.status).toBe(1);
      expectNamed(r.stdout + r.stderr, emulator.url, started);
    }, 120_000);
  });

  test("an endpoint where nothing answers: the hint names VPLATFORM_ENDPOINT, the CLI's own setting, not stack config or --run-program", async () => {
    const closed = await new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, "127.0.0.1", () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const r = await vplatformWith(
      { VPLATFORM_ENDPOINT: `https://127.0.0.1:${closed}` },
      "preview",
      "environments/dev.yaml",
      "--stack",
      "nowhere",
    );
    expect(r.code).toBe(1);
    const output = r.stdout + r.stderr;
    expect(output).toContain(`nothing answers at https://127.0.0.1:${closed}: check VPLATFORM_ENDPOINT`);
    expect(output).not.toMatch(/vplatform:endpoint|--run-program/);
    // The engine's error is said in its words, not inside the Automation API's command result (`code: … stdout: …`).
    expect(r.stderr).not.toMatch(/^\s*(code|stdout|stderr|err\?): /m);
  }, 120_000);
});
