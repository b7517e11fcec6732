/**
 * Bad input is refused at preview: for every input of every resource a value
 * its schema refuses (generated from the schemas), plus the cases the
 * reliability review found accepted at preview. Each must be refused by
 * `check`, naming the field, and the whole suite sends no mutating request.
 */
import { loadEnvironment } from "../../env/load-environment";
import { EnvironmentError } from "../../env/environment-error";
import { RESOURCE_LIST } from "../../provider/resources";
import { PREVIEW_UNKNOWN } from "../../provider/schemas/normalize";
import { referencesOf } from "../../provider/resources/framework/referenceCheck";
import { type Lab, checkedCreate, mutating, providers, startLab } from "./harness";

const GPU = "0f3e6a52-6d1b-4b8e-9a51-a100a100a001";
let lab: Lab;
let valid: Record<string, Record<string, unknown>>;
let vm: { id: string; machineKey: string };
const refused: string[] = [];
const notRefused: string[] = [];

beforeAll(async () => {
  lab = await startLab();
  const made = await checkedCreate(providers.VirtualMachine(), { name: "bad-input-host", powerState: "stopped" });
  const net = await checkedCreate(providers.Vnet(), { name: "bad-input-net", network: "10.91.0.0/24" });
  vm = { id: made.id, machineKey: made.outs.machineKey };
  const hook = await checkedCreate(providers.Webhook(), { name: "bad-input-hook", url: "https://127.0.0.1:9/" });
  const task = await checkedCreate(providers.Task(), { name: "bad-input-task", webhook: hook.id });
  const grantee = await checkedCreate(providers.User(), { name: "bad-input-grantee", role: "none" });
  valid = {
    VirtualMachine: { name: "bad-vm" },
    Drive: { machine: vm.machineKey, media: "disk", disksize: 1024 ** 3 },
    Nic: { machine: vm.machineKey, vnet: net.id },
    Device: { machine: vm.machineKey, resourceGroup: GPU, settingsArgs: {} },
    Vnet: { name: "bad-net", network: "10.92.0.0/24" },
    VmSnapshot: { vm: vm.id, name: "snap" },
    VmPower: { vm: vm.id, state: "running" },
    Webhook: { name: "bad-hook", url: "https://hooks.example/alert" },
    Task: { name: "bad-task", webhook: hook.id },
    EventTrigger: { task: task.id, type: "vms", event: "poweroff" },
    Schedule: { name: "bad-schedule" },
    User: { name: "bad-user" },
    ApiKey: { name: "bad-key" },
    Group: { name: "bad-group" },
    Permission: { user: grantee.id, table: "vms" },
  };
  await lab.newRun(); // the preview checked below is a later run than the one that made the host
  await lab.resetRequests();
}, 60_000);
afterAll(async () => {
  const total = refused.length + notRefused.length;
  process.stdout.write(
    `\nbad input refused at preview with the field named: ${refused.length}/${total}${notRefused.length ? ` (not: ${notRefused.join(", ")})` : ""}\n`,
  );
  await lab.close();
});

const CANDIDATES: unknown[] = [{ bogus: 1 }, 123456789, "∅ not valid", true, [1, 2], -1, "a".repeat(5000)];

/** Every (resource, field, wrong value) the schemas allow us to generate: the first candidate the field's own schema refuses. */
const generated = RESOURCE_LIST.flatMap((r) =>
  Object.entries(r.inputs.shape as Record<string, { safeParse(v: unknown): { success: boolean } }>).flatMap(([field, schema]) => {
    const wrong = CANDIDATES.find((v) => !schema.safeParse(v).success);
    return wrong === undefined ? [] : [[r.token, field, wrong] as const];
  }),
);

/**
 * Whether a failure names `field` (written as users write paths: `headers[0].name`): as its property (an input
 * given), or at the head of its reason (a path within an input, or an input left out).
 */
const names = (f: { property: string; reason: string }, field: string) =>
  f.property === field || (f.property === "" && [": ", ".", "["].some((next) => f.reason.startsWith(field + next)));

async function expectRefused(token: string, inputs: Record<string, unknown>, field: string) {
  const provider = (providers as Record<string, () => any>)[token]();
  const failures: { property: string; reason: string }[] = (await provider.check({}, inputs)).failures ?? [];
  const named = failures.some((f) => names(f, field));
  (named ? refused : notRefused).push(`${token}.${field}`);
  // On failure, shows what was reported instead.
  expect(named ? field : failures).toEqual(field);
}

describe("every input's wrong value is refused in check, naming the field (generated from the schemas)", () => {
  test.each(generated)("%s.%s = %j", async (token, field, wrong) => {
    await expectRefused(token, { ...valid[token], [field]: wrong }, field);
  });

  test.each(RESOURCE_LIST.map((r) => r.token))("%s: an input it does not have is refused by name", async (token) => {
    await expectRefused(token, { ...valid[token], colour: "red" }, "colour");
  });
});

/** Every declared reference (provider/resources/referenceCheck.ts), with a value naming no row. */
const references = RESOURCE_LIST.flatMap((r) =>
  referencesOf(r.inputs.shape).map((ref) => {
    const missing = ref.column === "uuid" ? "11111111-2222-4333-8444-555555555555" : "999999";
    return [r.token, ref.field, Array.isArray(r.inputs.shape[ref.field].safeParse(undefined).data) ? [missing] : missing] as const;
  }),
);

describe("every input that names another row is refused at preview when the row does not exist (from the declared references)", () => {
  test("the references of the automation kinds are declared", () => {
    expect(references.map(([token, field]) => `${token}.${field}`)).toEqual(
      expect.arrayContaining(["ApiKey.user", "EventTrigger.task", "Schedule.tasks", "Task.webhook", "Nic.vnet", "Drive.mediaSource"]),
    );
  });

  test.each(references)("%s.%s = %j", async (token, field, missing) => {
    const U = PREVIEW_UNKNOWN;
    // The machine stays unknown: a reference is checked whatever else is not known yet.
    const inputs = { ...valid[token], ...(valid[token].machine ? { machine: U } : {}), [field]: missing };
    await expectRefused(token, inputs, field);
  });
});

describe("the cases found accepted at preview are refused there now", () => {
  const U = PREVIEW_UNKNOWN;
  test("a cdrom drive without mediaSource (its VM not created yet)", () =>
    expectRefused("Drive", { machine: U, media: "cdrom" }, "mediaSource"));
  test("a disk drive without disksize (its VM not created yet)", () => expectRefused("Drive", { machine: U, media: "disk" }, "disksize"));
  test("a VM's key given as a drive's machine", () => expectRefused("Drive", { ...valid.Drive, machine: vm.id }, "machine"));
  test("a mediaSource of no file", () => expectRefused("Drive", { machine: U, media: "cdrom", mediaSource: "999999" }, "mediaSource"));
  test("a NIC's vnet key of no vnet", () => expectRefused("Nic", { machine: U, vnet: "999999" }, "vnet"));
  test("a device's resource group UUID of nothing", () =>
    expectRefused("Device", { machine: U, resourceGroup: "11111111-2222-4333-8444-555555555555" }, "resourceGroup"));
  test("an API key's allow-list entry that is neither an address nor a CIDR block", () =>
    expectRefused("ApiKey", { name: "k", ipAllowList: [{ address: "10.0.0.300" }] }, "ipAllowList"));
  test("an API key's deny-list entry with a prefix too long", () =>
    expectRefused("ApiKey", { name: "k", ipDenyList: [{ address: "10.0.0.0/33" }] }, "ipDenyList"));
  test("a new API key's expiry in the past", () => expectRefused("ApiKey", { name: "k", expires: "2020-01-01" }, "expires"));
  test("an API key's expiry that is no date", () => expectRefused("ApiKey", { name: "k", expires: "tomorrow" }, "expires"));
  test("a user whose name the platform refuses", () => expectRefused("User", { name: "two words" }, "name"));
  test("a new user named like a user on the platform, without adopt (one read-only look-up)", () =>
    expectRefused("User", { name: "admin" }, "name"));
  test("a CIDR with two prefixes", () => expectRefused("Vnet", { name: "n", network: "10.0.0.0/24/8" }, "network"));
  test("a VM named like an existing VM, without adopt (one read-only look-up)", () =>
    expectRefused("VirtualMachine", { name: "bad-input-host" }, "name"));
  test("a cross-field rule still holds when another input is unknown (DHCP range ends before it starts)", () =>
    expectRefused(
      "Vnet",
      { name: U, network: "10.0.0.0/24", dhcpEnabled: true, dhcpStart: "10.0.0.200", dhcpStop: "10.0.0.100" },
      "dhcpStop",
    ));
});

describe("the bad input of issue 20 for webhooks, tasks, event triggers and schedules is refused at preview", () => {
  const U = PREVIEW_UNKNOWN;
  test("a webhook timeout below 3", () => expectRefused("Webhook", { ...valid.Webhook, timeout: 2 }, "timeout"));
  test("a bearer token that starts with Bearer", () =>
    expectRefused("Webhook", { ...valid.Webhook, authorization: { type: "bearer", token: "Bearer abc" } }, "authorization.token"));
  test("an API key value with a prefix", () =>
    expectRefused("Webhook", { ...valid.Webhook, authorization: { type: "apiKey", key: "ApiKey abc" } }, "authorization.key"));
  test("a header without a name", () =>
    expectRefused("Webhook", { ...valid.Webhook, headers: [{ name: " ", value: "x" }] }, "headers[0].name"));
  test("a message variable outside the four", () => expectRefused("Task", { ...valid.Task, message: "${NAME} on ${HOST}" }, "message"));
  test("a task whose webhook does not exist (one read-only look-up)", () =>
    expectRefused("Task", { ...valid.Task, webhook: "999999" }, "webhook"));
  test("an event that the type does not have (the catalog, read once)", () =>
    expectRefused("EventTrigger", { ...valid.EventTrigger, event: "exploded" }, "event"));
  test("an object given for a generic type", () =>
    expectRefused("EventTrigger", { task: U, type: "alarms", event: "raised", object: "1" }, "object"));
  test("a tag and an object both given", () => expectRefused("EventTrigger", { ...valid.EventTrigger, object: vm.id, tag: "1" }, "tag"));
  test("a schedule whose end is before its start", () =>
    expectRefused("Schedule", { ...valid.Schedule, start: "2031-02-01", end: "2031-01-01" }, "end"));
});

describe("a YAML environment with a key given twice in one mapping is refused, naming the key with its line and column", () => {
  test.each([
    ["a VM's field given twice", "vms:\n  - name: web\n    ram: 1024\n    ram: 2048\n", "vms[0].ram", 4],
    [
      "a drive's field given twice",
      "vms:\n  - name: web\n    drives:\n      - name: os\n        disksize: 1GiB\n        disksize: 2GiB\n",
      "vms[0].drives[0].disksize",
      6,
    ],
    ["a top-level list given twice", "vms: []\nvnets: []\nvms: []\n", "vms", 3],
  ])("%s", (_case, text, path, line) => {
    let problems: { path: string; location: { line: number } }[] = [];
    try {
      loadEnvironment("env.yaml", text);
    } catch (e) {
      if (!(e instanceof EnvironmentError)) throw e;
      problems = e.problems;
    }
    const named = problems.some((p) => p.path === path && p.location.line === line);
    (named ? refused : notRefused).push(`yaml ${path} twice`);
    expect(problems).toEqual(expect.arrayContaining([expect.objectContaining({ path, location: expect.objectContaining({ line }) })]));
  });
});

describe("a preview changes nothing", () => {
  test("the checks above sent no mutating request", async () => {
    expect(mutating((await lab.requests()).entries)).toEqual([]);
  });
});
