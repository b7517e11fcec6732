/**
 * A replacement made before its predecessor is deleted (create-before-delete, the engine's default) creates a row
 * of its own: it shares its predecessor's identity and so its create marker, yet never takes over the
 * predecessor's row, which is still live and still in state until the engine deletes it (an API key's rotation
 * revoked the old key before the new one existed). Run as the engine runs a replacement: check and create of the
 * new declaration, the old row still there. One case per resource that can be replaced this way, derived from the
 * list: a new resource with a replacing input fails the completeness test until it has its case.
 */
import { RESOURCE_LIST, type ResourceToken } from "../../provider/resources";
import { stableMarker } from "../../provider/reconcile/createMarker";
import { fieldMeta } from "../../provider/schemas/common";
import { type Lab, checkedCreate, providers, startLab } from "./harness";
import { MARKER_INPUT } from "../../provider/schemas/hiddenInputs";

const GPU = "0f3e6a52-6d1b-4b8e-9a51-a100a100a001";
let lab: Lab;
/** The rows the cases stand on. */
let made: { vm: string; ma: string; mb: string; clone: string; vnet: string; webhook: string; t1: string; t2: string; user: string };

type Inputs = Record<string, unknown>;
/** Per resource: its table, and a declaration and its replacement (a replacing input changed). */
const cases: Partial<Record<ResourceToken, () => { table: string; before: Inputs; after: Inputs }>> = {
  ApiKey: () => ({ table: "user_api_keys", before: { name: "ci", rotation: "1" }, after: { name: "ci", rotation: "2" } }),
  EventTrigger: () => ({
    table: "task_events",
    before: { task: made.t1, type: "vms", event: "poweroff" },
    after: { task: made.t2, type: "vms", event: "poweroff" },
  }),
  // Task names are unique: kept, the replacement deletes first; renamed, it is made first.
  Task: () => ({
    table: "tasks",
    before: { name: "cbd-once", webhook: made.webhook },
    after: { name: "cbd-once-renamed", webhook: made.webhook, deleteAfterRunning: true },
  }),
  VmSnapshot: () => ({ table: "vms", before: { vm: made.vm, name: "before" }, after: { vm: made.vm, name: "after" } }),
  Drive: () => ({
    table: "machine_drives",
    before: { machine: made.ma, name: "data", media: "disk", disksize: 2 ** 30 },
    after: { machine: made.mb, name: "data", media: "disk", disksize: 2 ** 30 },
  }),
  Nic: () => ({ table: "machine_nics", before: { machine: made.ma, vnet: made.vnet }, after: { machine: made.mb, vnet: made.vnet } }),
  Device: () => ({
    table: "machine_devices",
    before: { machine: made.ma, resourceGroup: GPU, settingsArgs: {} },
    after: { machine: made.mb, resourceGroup: GPU, settingsArgs: {} },
  }),
  Vnet: () => ({
    table: "vnets",
    before: { name: "cbd-before", network: "10.96.0.0/24", type: "internal" },
    after: { name: "cbd-after", network: "10.96.0.0/24", type: "dmz" },
  }),
  // A grant moved to another row: the new one is made first, so the user is never without it.
  Permission: () => ({
    table: "permissions",
    before: { user: made.user, table: "vms", row: made.vm, read: true },
    after: { user: made.user, table: "vms", row: made.clone, read: true },
  }),
  VirtualMachine: () => ({
    table: "vms",
    before: { name: "cbd-vm", powerState: "stopped" },
    after: { name: "cbd-clone", cloneFrom: { vm: made.clone } },
  }),
};

beforeAll(async () => {
  lab = await startLab();
  const vm = (name: string) => checkedCreate(providers.VirtualMachine(), { name, powerState: "stopped" });
  const [a, b] = [await vm("cbd-a"), await vm("cbd-b")];
  const net = await checkedCreate(providers.Vnet(), { name: "cbd-net", network: "10.95.0.0/24" });
  const hook = await checkedCreate(providers.Webhook(), { name: "cbd-hook", url: "https://127.0.0.1:9/" });
  const task = (name: string) => checkedCreate(providers.Task(), { name, webhook: hook.id });
  const [t1, t2] = [await task("cbd-t1"), await task("cbd-t2")];
  const user = await checkedCreate(providers.User(), { name: "cbd-grantee", role: "none" });
  const [vms, keys] = [
    { vm: a.id, ma: a.outs.machineKey, mb: b.outs.machineKey, clone: b.id },
    { vnet: net.id, webhook: hook.id },
  ];
  made = { ...vms, ...keys, t1: t1.id, t2: t2.id, user: user.id };
}, 120_000);
afterAll(() => lab?.close());

describe("a replacement made before its predecessor is deleted creates a row of its own", () => {
  test("every resource with a replacing input that makes a row has a case here", () => {
    const replaceable = RESOURCE_LIST.filter(
      (r) => r.sdk.createMarker !== false && Object.values(r.inputs.shape).some((f) => fieldMeta(f)?.onChange === "replace"),
    ).map((r) => r.token);
    expect(Object.keys(cases).sort()).toEqual([...replaceable].sort());
  });

  test.each(Object.keys(cases) as ResourceToken[])("%s: the replacement's create leaves the old row alone", async (token) => {
    const c = cases[token]!();
    const provider = providers[token]();
    const marker = stableMarker(`urn:pulumi:dev::cbd::vplatform:index:${token}::same`);
    const old = await checkedCreate(provider, { ...c.before, [MARKER_INPUT]: marker });
    const diff = await provider.diff(old.id, old.outs, { ...c.after, [MARKER_INPUT]: marker });
    expect(diff).toMatchObject({ changes: true, deleteBeforeReplace: false });
    expect(diff.replaces?.length).toBeGreaterThan(0);
    const replacement = await checkedCreate(provider, { ...c.after, [MARKER_INPUT]: marker });
    expect(replacement.id).not.toBe(old.id);
    // The predecessor's row is still there, as it was, until the engine deletes it.
    expect(await lab.api("GET", `${c.table}/${old.id}?fields=$key`)).toMatchObject({ $key: Number(old.id) });
    // State records the resource's own marker, not its row's.
    expect(replacement.outs[MARKER_INPUT]).toBe(marker);
  });
});
