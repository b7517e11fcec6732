// Generated from the schemas: for every optional input of every resource, declare
// it, create, remove it from the declaration, apply that as the engine would
// (update, or replace when the diff says so), and the next diff shows no change;
// a refresh reads no drift either. The platform then holds what the input's
// `whenRemoved` metadata promises (docs/resources.md shows it): the default, or
// the value last set (no longer managed). Cases run concurrently (jest's
// maxConcurrency at a time), as the engine runs independent resources: each
// makes its own rows, and most of a case's time is the provider waiting.
import { z } from "zod";
import { fieldMeta, normalizeFieldValue, type Shape } from "../../provider/schemas/common";
import { RESOURCE_LIST } from "../../provider/resources";
import { withoutTag } from "../../provider/reconcile/createMarker";
import { codecOf } from "../../provider/schemas/fieldCodec";
import { type Lab, providers, startLab } from "./harness";

type Row = Record<string, any>;
type Token = keyof typeof providers;

let lab: Lab;
const keys: Row = {};
beforeAll(async () => {
  lab = await startLab();
  const [file] = await lab.api("GET", "files?fields=$key&limit=1");
  const [cluster] = await lab.api("GET", "clusters?fields=$key&limit=1");
  keys.file = String(file.$key);
  keys.cluster = String(cluster.$key);
  keys.template = await createdKey("VirtualMachine", { name: "rm-template" });
  const vm = await create("VirtualMachine", { name: "rm-owner" });
  keys.vm = vm.id;
  keys.machine = vm.outs.machineKey;
  keys.vnet = await createdKey("Vnet", { name: "rm-net" });
  keys.webhook = await createdKey("Webhook", { name: "rm-hook", url: "https://127.0.0.1:9/" });
  keys.task = await createdKey("Task", { name: "rm-task", webhook: keys.webhook });
  keys.tag = String((await lab.api("POST", "tags", { name: "rm-tag" })).$key);
  // Event triggers are recognized by their content: each case gets a task of its own, so no two are alike.
  keys.triggerTasks = await Promise.all([1, 2, 3].map((n) => createdKey("Task", { name: `rm-trigger-task-${n}`, webhook: keys.webhook })));
  keys.user = await createdKey("User", { name: "rm-key-owner" });
  keys.group = await createdKey("Group", { name: "rm-inner-group" });
  // A grant is one per grantee, table and row: each case grants to a user of its own.
  keys.grantees = await Promise.all(Array.from({ length: 12 }, (_, n) => createdKey("User", { name: `rm-grantee-${n}`, role: "none" })));
}, 120_000);
afterAll(() => lab.close());

const GPU_GROUP = "0f3e6a52-6d1b-4b8e-9a51-a100a100a001";
let serial = 0;
/** The required inputs of each resource (unique names: every case makes its own row). */
const bases: Record<Token, () => Row> = {
  VirtualMachine: () => ({ name: `rm-vm-${++serial}` }),
  Drive: () => ({ machine: keys.machine, name: `rm-d-${++serial}`, disksize: 2 ** 30 }),
  Nic: () => ({ machine: keys.machine, vnet: keys.vnet, name: `rm-n-${++serial}` }),
  Device: () => ({ machine: keys.machine, resourceGroup: GPU_GROUP, name: `rm-g-${++serial}` }),
  Vnet: () => ({ name: `rm-net-${++serial}` }),
  VmSnapshot: () => ({ vm: keys.vm, name: `rm-s-${++serial}` }),
  VmPower: () => ({ vm: keys.template, state: "stopped" }),
  Webhook: () => ({ name: `rm-w-${++serial}`, url: "https://127.0.0.1:9/" }),
  Task: () => ({ name: `rm-t-${++serial}`, webhook: keys.webhook }),
  EventTrigger: () => ({ task: keys.triggerTasks.pop(), type: "vms", event: "poweroff" }),
  Schedule: () => ({ name: `rm-sch-${++serial}` }),
  User: () => ({ name: `rm-u-${++serial}` }),
  ApiKey: () => ({ name: `rm-k-${++serial}` }),
  Group: () => ({ name: `rm-grp-${++serial}` }),
  Permission: () => ({ user: keys.grantees.pop(), table: "vms" }),
};

/**
 * Values the JSON Schema cannot suggest, with what they need beside them
 * (`with`: inputs that stay declared; `adopt` needs a row to take over).
 */
interface Sample {
  value: unknown;
  with?: Row;
}
const samples: Record<string, () => Sample> = {
  "VirtualMachine.cluster": () => ({ value: keys.cluster }),
  "VirtualMachine.machineType": () => ({ value: "q35" }),
  "VirtualMachine.secureBoot": () => ({ value: true, with: { uefi: true } }),
  "VirtualMachine.cloudinitFiles": () => ({ value: [{ name: "/user-data", contents: "#cloud-config\n" }] }),
  "VirtualMachine.cloneFrom": () => ({ value: { vm: keys.template } }),
  "Drive.vm": () => ({ value: keys.vm }),
  "Drive.media": () => ({ value: "cdrom", with: { mediaSource: keys.file } }),
  "Drive.disksize": () => ({ value: 2 * 2 ** 30, with: { mediaSource: keys.file } }),
  "Drive.mediaSource": () => ({ value: keys.file }),
  "Nic.vm": () => ({ value: keys.vm }),
  "Nic.macaddress": () => ({ value: "52:54:00:12:34:56" }),
  "Nic.ipaddress": () => ({ value: "10.60.0.5" }),
  "Device.vm": () => ({ value: keys.vm }),
  "Device.settingsArgs": () => ({ value: { model: "a100" } }),
  "Vnet.network": () => ({ value: "10.60.0.0/24" }),
  "Vnet.gateway": () => ({ value: "10.60.0.1", with: { network: "10.60.0.0/24" } }),
  "Vnet.dhcpEnabled": () => ({ value: true, with: { network: "10.60.0.0/24", dhcpStart: "10.60.0.10", dhcpStop: "10.60.0.20" } }),
  "Vnet.dhcpStart": () => ({ value: "10.60.0.10", with: { network: "10.60.0.0/24", dhcpStop: "10.60.0.20" } }),
  "Vnet.dhcpStop": () => ({ value: "10.60.0.20", with: { network: "10.60.0.0/24", dhcpStart: "10.60.0.10" } }),
  "Vnet.dnslist": () => ({ value: "10.0.0.53" }),
  "Vnet.advancedOptions": () => ({ value: { dnsmasq: ["dhcp-option=6,10.0.0.1"] } }),
  "VmSnapshot.restoreTrigger": () => ({ value: "2026-01-01T00:00:00Z" }),
  "Webhook.authorization": () => ({ value: { type: "bearer", token: "t0ken" } }),
  "Webhook.headers": () => ({ value: [{ name: "X-Team", value: "lab" }] }),
  "Webhook.timeout": () => ({ value: 10 }),
  "Task.message": () => ({ value: "${NAME} at ${TIMESTAMP}" }),
  "EventTrigger.object": () => ({ value: keys.vm }),
  "EventTrigger.tag": () => ({ value: keys.tag }),
  "Schedule.start": () => ({ value: "2031-01-01" }),
  "Schedule.end": () => ({ value: "2031-12-31" }),
  "Schedule.startTimeOfDay": () => ({ value: "02:30" }),
  "Schedule.endTimeOfDay": () => ({ value: "23:00" }),
  "Schedule.days": () => ({ value: ["monday", "thursday"] }),
  "Schedule.tasks": () => ({ value: [keys.task] }),
  "User.email": () => ({ value: "rm@example.org" }),
  "ApiKey.user": () => ({ value: keys.user }),
  "ApiKey.expires": () => ({ value: new Date(Date.now() + 86_400_000).toISOString().replace(/\.\d+Z$/, "Z") }),
  "ApiKey.ipAllowList": () => ({ value: [{ address: "127.0.0.0/8" }] }),
  "ApiKey.ipDenyList": () => ({ value: [{ address: "192.0.2.0/24" }] }),
  "ApiKey.rotation": () => ({ value: "2026-01-01" }),
  "Group.users": () => ({ value: [keys.user] }),
  "Group.memberGroups": () => ({ value: [keys.group] }),
  "Permission.row": () => ({ value: keys.vm }),
};

/** A valid value that differs from the input's default, from its JSON Schema. */
function generated(js: Row): unknown {
  const variants: Row[] = js.anyOf ? js.anyOf.filter((v: Row) => v.type !== "null") : [js];
  const v = variants[0];
  if (v.enum) return v.enum.find((e: unknown) => e !== js.default) ?? v.enum[0];
  switch (v.type) {
    case "boolean":
      return js.default !== true;
    case "integer":
    case "number":
      return Math.max(v.minimum ?? 1, v.exclusiveMinimum !== undefined ? v.exclusiveMinimum + 1 : 1);
    case "string":
      return "x";
    case "object":
      return v.properties && "create" in v.properties ? { create: 600, delete: 300 } : {};
  }
  throw new Error(`no sample for ${JSON.stringify(js)}: add one to samples`);
}

/**
 * Inputs that are optional one by one but not together: a task names exactly one object (webhook, vm or
 * user), so removing it means declaring another, a change of object (test/provider/automation/objectTasks.test.ts);
 * a grant names exactly one grantee (user or group), a change that replaces it (test/provider/permission.test.ts).
 */
const ONE_OF = new Set(["Task.webhook", "Task.vm", "Task.user", "Permission.user", "Permission.group"]);

const optionalInputs = RESOURCE_LIST.flatMap((r) =>
  Object.entries(r.inputs.shape as Shape)
    .filter(([field, schema]) => schema.safeParse(undefined).success && !ONE_OF.has(`${r.token}.${field}`))
    .map(([field, schema]) => [`${r.token}.${field}`, r.token as Token, field, schema] as const),
);

async function check(token: Token, olds: Row, news: Row): Promise<Row> {
  const checked = await providers[token]().check(olds, news);
  if (checked.failures?.length) throw new Error(`${token} check: ${JSON.stringify(checked.failures)}`);
  return checked.inputs;
}
async function create(token: Token, news: Row) {
  const inputs = await check(token, {}, news);
  const created = await providers[token]().create(inputs);
  return { id: created.id as string, outs: created.outs as Row, inputs };
}
const createdKey = async (token: Token, news: Row) => (await create(token, news)).id;
const tableOf = (token: Token) => RESOURCE_LIST.find((r) => r.token === token)!.table;

describe("removing an optional input leaves no diff (generated: every optional input of every resource)", () => {
  test.concurrent.each(optionalInputs)(
    "%s",
    async (_id, token, field, schema) => {
      const p = providers[token]();
      const sample = samples[`${token}.${field}`]?.() ?? {
        value: generated(z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Row),
      };
      const { [field]: _declaredByBase, ...base } = { ...bases[token](), ...sample.with };
      if (field === "adopt") await create(token, base); // a row to take over
      let { id, outs } = await create(token, { ...base, [field]: sample.value });

      // The program no longer declares the input: the engine checks, diffs, then updates or replaces.
      const news = await check(token, outs, base);
      const diff = await p.diff(id, outs, news);
      if (diff.replaces?.length) {
        if (diff.deleteBeforeReplace) await p.delete(id, outs);
        const replacement = await p.create(news);
        if (!diff.deleteBeforeReplace) await p.delete(id, outs);
        ({ id, outs } = replacement);
      } else if (diff.changes) {
        outs = (await p.update(id, outs, news)).outs;
      }

      expect(await p.diff(id, outs, await check(token, outs, base))).toMatchObject({ changes: false });
      const refreshed = await p.read(id, outs);
      expect(await p.diff(id, refreshed.props, await check(token, refreshed.inputs, base))).toMatchObject({ changes: false });

      // The platform holds what the metadata promises (a row field; a snapshot's inputs are parameters of its action),
      // apart from the create marker the provider tags descriptions with (its bookkeeping, stripped on every read).
      const meta = fieldMeta(schema)!;
      // A write-only input without a codec is never read back (keysAndUsers.test.ts proves the password is sent).
      if (meta.api && token !== "VmSnapshot" && !(meta.writeOnly && !codecOf(schema))) {
        // A field with a codec (header lines, owner references, dates) spans its columns and reads back through it.
        const codec = codecOf(schema);
        const columns = codec ? codec.columns.join(",") : meta.api;
        const row = withoutTag(await lab.api("GET", `${tableOf(token)}/${id}?fields=${encodeURIComponent(columns)}`));
        const expected = z.parse(schema, meta.whenRemoved === "default" ? news[field] : sample.value);
        const held = codec ? codec.fromApi(row, expected) : normalizeFieldValue(meta, row[meta.api]);
        expect(held).toEqual(codec ? expected : normalizeFieldValue(meta, expected));
      }
      await p.delete(id, outs);
    },
    60_000,
  );
});
