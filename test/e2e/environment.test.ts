// The main job: the root Pulumi project (Pulumi.yaml, run by the Node.js
// language host) provisions a YAML environment definition.
import * as fs from "node:fs";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ENVIRONMENT_LISTS } from "../../env/environment-kinds";
import { loadEnvironment } from "../../env/load-environment";
import { createLocalStack, findRepoRoot } from "../../env/local-stack";
import { startPostgres, type RunningPostgres } from "./postgres";
import { e2eWorkDir } from "./harness";

const root = findRepoRoot();
let emulator: RunningEmulator;
let postgres: RunningPostgres;
let work: string;

async function rootStack(name: string, environment: string): Promise<Stack> {
  return createLocalStack({
    stackName: name,
    backendUrl: postgres.url,
    connection: { endpoint: emulator.url, apiKey: emulator.apiKey, caCert: emulator.caCert },
    workDir: root,
    config: { "vplatform-lab:environment": environment },
  });
}

/** A GET, or a POST of `body`, to the emulator's API. */
async function api(apiPath: string, body?: object): Promise<any> {
  const { default: got } = await import("got");
  return got(`${emulator.url}/api${apiPath}`, {
    method: body ? "POST" : "GET",
    json: body,
    headers: { authorization: `Bearer ${emulator.apiKey}` },
    https: { certificateAuthority: emulator.caCert },
  }).json();
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, timeScale: 0.01, quiet: true });
  postgres = await startPostgres();
  work = e2eWorkDir("environment-");
});
afterAll(async () => {
  await emulator?.close();
  await postgres?.stop();
  for (const f of fs.readdirSync(root)) if (/^Pulumi\.e2e-env-.*\.yaml$/.test(f)) fs.rmSync(path.join(root, f));
  fs.rmSync(work, { recursive: true, force: true });
});

describe("the root program provisions an environment definition, state in PostgreSQL", () => {
  test("a broken environment file fails at preview with file:line:col, creating nothing", async () => {
    const broken = path.join(work, "broken.yaml");
    fs.writeFileSync(broken, "vms:\n  - name: web\n    ram: 128\n    powerState: running\n");
    const stack = await rootStack("e2e-env-broken", broken);
    let message = "";
    await stack.preview().catch((e: Error) => (message = e.message));
    expect(message).toMatch(/broken\.yaml:3:10: vms\[0\]\.ram: RAM must be at least 512 MB/);
    expect(await api("/v4/vms?filter=name%20eq%20'web'")).toEqual([]);
  }, 300_000);

  test("the example lab comes up running (its network too), converges, and destroy removes it", async () => {
    const stack = await rootStack("e2e-env-lab", path.join(root, "examples/environments/lab.yaml"));
    const up = await stack.up();
    expect(up.summary.result).toBe("succeeded");
    const vms = await api("/v4/vms?fields=name,machine%23status%23status%20as%20status&filter=is_snapshot%20eq%20false&sort=%2Bname");
    expect(vms).toEqual([
      { name: "db", status: "running" },
      { name: "web", status: "running" },
    ]);
    const drives = await api("/v4/machine_drives?fields=name");
    expect(drives).toHaveLength(3);
    // A network passes traffic only while it runs: the example's does.
    expect(await api("/v4/vnets?filter=name%20eq%20'lab'&fields=machine%23status%23status%20as%20status")).toEqual([{ status: "running" }]);
    const preview = await stack.preview();
    expect(Object.keys(preview.changeSummary).filter((k) => k !== "same")).toEqual([]);
    await stack.destroy();
    expect(await api("/v4/vms?filter=is_snapshot%20eq%20false")).toEqual([]);
    expect(await api("/v4/vnets?filter=name%20eq%20'lab'")).toEqual([]);
  }, 600_000);

  test("the environment that uses every field comes up: UEFI VM with drives, NIC, GPU, a stopped clone, automation, users and keys", async () => {
    const file = path.join(root, "examples/environments/full.yaml");
    // The file's tag-wide trigger names tag 1: tags are rows the provider does not declare.
    const tagged = loadEnvironment(file).eventTriggers.find((t) => t.tag !== undefined)!;
    expect(String((await api("/v4/tags", { name: "full-example" })).$key)).toBe(tagged.tag);
    const stack = await rootStack("e2e-env-full", file);
    const up = await stack.up();
    expect(up.summary.result).toBe("succeeded");
    const [vm] = await api(
      "/v4/vms?filter=name%20eq%20'full-vm'&fields=$key,machine,uefi,secure_boot,note,machine%23status%23status%20as%20status",
    );
    expect(vm).toMatchObject({ status: "running", note: "Declared in examples/environments/full.yaml" });
    // Started once, after its GPU was attached (a passthrough device needs a stopped VM).
    expect(up.stdout).not.toMatch(/restarting VM 'full-vm'/);
    expect(await api(`/v4/machine_devices?filter=machine%20eq%20${vm.machine}&fields=name`)).toEqual([{ name: "gpu0" }]);
    expect(
      (await api(`/v4/machine_drives?filter=machine%20eq%20${vm.machine}&fields=name&sort=%2Bname`)).map((d: { name: string }) => d.name),
    ).toEqual(["installer", "os"]);
    const [clone] = await api("/v4/vms?filter=name%20eq%20'full-clone'&fields=machine%23status%23status%20as%20status");
    expect(clone).toEqual({ status: "stopped" });
    // Its network declared running passes traffic.
    expect(await api("/v4/vnets?filter=name%20eq%20'full-net'&fields=machine%23status%23status%20as%20status")).toEqual([
      { status: "running" },
    ]);
    // The pipeline's user and its key by name; the key's secret is a secret output, the password never printed.
    const [ci] = await api("/v4/users?filter=name%20eq%20'full-ci'&fields=$key,role");
    expect(ci).toMatchObject({ role: "vmoperator" });
    expect(await api(`/v4/user_api_keys?filter=user%20eq%20${ci.$key}&fields=name,ip_allow_list`)).toEqual([
      { name: "full-ci-key", ip_allow_list: "127.0.0.0/8" },
    ]);
    // A key of an existing user, named in the file: its user is looked up by name.
    const [admin] = await api("/v4/users?filter=name%20eq%20'admin'&fields=$key");
    expect(await api("/v4/user_api_keys?filter=name%20eq%20'full-ops-key'&fields=user")).toEqual([{ user: admin.$key }]);
    // Automation by name: the task sends through the webhook; the triggers and the schedule run it.
    const [task] = await api("/v4/tasks?filter=name%20eq%20'full-vm-stopped'&fields=$key,owner");
    const [hook] = await api("/v4/webhook_urls?filter=name%20eq%20'full-alerts'&fields=$key");
    expect(task.owner).toBe(`webhook_urls/${hook.$key}`);
    expect(await api(`/v4/task_events?filter=task%20eq%20${task.$key}&fields=event,owner,tag&sort=%2Bevent`)).toEqual([
      { event: "poweroff", owner: `vms/${vm.$key}`, tag: null },
      { event: "poweron", owner: null, tag: Number(tagged.tag) },
    ]);
    // Every list of the file is a stack output, each entry by its logical name.
    expect(Object.keys(up.outputs).sort()).toEqual([...ENVIRONMENT_LISTS].sort());
    expect(Object.keys(up.outputs.eventTriggers.value)).toEqual(["full-vm-stopped-vms-poweroff-full-vm", "full-vm-stopped-vms-poweron-1"]);
    expect(up.outputs.schedules.value).toEqual({ "full-weekly": expect.stringMatching(/^\d+$/) });
    expect(up.stdout).toMatch(/secret\s*:\s*\[secret\]/); // the stack output apiKeys.full-ci-key.secret
    expect(up.stdout).not.toMatch(/vpk_\w+|full-example-pw|full-example-token/);
    const preview = await stack.preview();
    expect(Object.keys(preview.changeSummary).filter((k) => k !== "same")).toEqual([]);
    await stack.destroy();
    expect(await api("/v4/vms?filter=is_snapshot%20eq%20false")).toEqual([]);
  }, 600_000);
});
