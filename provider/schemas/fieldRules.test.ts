// Every input of every resource, generated from the shapes, so a field added tomorrow is
// covered the day it is added (or fails "has cases" until it gets some):
// - values at its bounds are accepted and values just past them refused, each refusal
//   naming the field's path with a message that says what is expected;
// - a typo (or the API's snake_case name) is refused by name: the objects are strict;
// - every accepted value goes out in its API representation and reads back, from every
//   form the API may answer with, as exactly the declared value (no perpetual diff).
// Enumerations, numeric and length bounds come from the field's own JSON Schema (what
// schema.json publishes); formats a JSON Schema cannot carry (keys, IPs, CIDRs, MACs,
// UUIDs, machine types, nested objects) have hand-written cases below.
import { z } from "zod";
import { fieldMeta, inputsFromApiRow, apiBodyOf, timeoutsSchema, type ApiKind, type Shape } from "./common";
import { deviceInputsSchema, deviceShape } from "../resources/device/schema";
import { driveInputsSchema, driveShape } from "../resources/drive/schema";
import { nicInputsSchema, nicShape } from "../resources/nic/schema";
import { cloneFromShape, virtualMachineInputsSchema, virtualMachineShape } from "../resources/virtualMachine/schema";
import { vmPowerInputsSchema, vmPowerShape } from "../resources/vmPower/schema";
import { vmSnapshotInputsSchema, vmSnapshotShape } from "../resources/vmSnapshot/schema";
import { vnetInputsSchema, vnetShape } from "../resources/vnet/schema";
import { userInputsSchema, userShape } from "../resources/user/schema";
import { apiKeyInputsSchema, apiKeyShape } from "../resources/apiKey/schema";
import { webhookInputsSchema, webhookShape } from "../resources/webhook/schema";
import { TASK_OBJECT_ACTIONS, taskInputsSchema, taskShape } from "../resources/task/schema";
import { groupInputsSchema, groupShape } from "../resources/group/schema";
import { permissionInputsSchema, permissionShape } from "../resources/permission/schema";
import { eventTriggerInputsSchema, eventTriggerShape } from "../resources/eventTrigger/schema";
import { scheduleInputsSchema, scheduleShape } from "../resources/schedule/schema";
import { RESOURCE_LIST } from "../resources";

type Obj = Record<string, unknown>;
const UUID = "9a8b7c6d-5e4f-4321-8fed-cba987654321";
const inner = (s: z.ZodType): z.ZodType => (s instanceof z.ZodOptional || s instanceof z.ZodDefault ? inner(s.unwrap() as z.ZodType) : s);
const shapeOf = (s: z.ZodType): Shape => (inner(s) as z.ZodObject).shape as Shape;

/**
 * A place where inputs are declared: a resource, or an object nested in one. `wrap` puts
 * the object into a complete, valid declaration of its resource; `at` is the path of the
 * object in that declaration; `base` is the smallest valid object (chosen so that the
 * cross-field rules hold for every single-field variation: secure boot has its UEFI,
 * drives their media source, the DHCP range its network). Where one base cannot hold for a field
 * (a task's object is exactly one of three, a clone's source one of two), `baseFor` gives that field's.
 */
interface Place {
  name: string;
  schema: z.ZodType;
  shape: Shape;
  base: Obj;
  baseFor?: (field: string, value: unknown) => Obj | undefined;
  at: (string | number)[];
  wrap: (o: Obj) => Obj;
}
const vmBase = { name: "web", uefi: true };
const places: Place[] = [
  { name: "VirtualMachine", schema: virtualMachineInputsSchema, shape: virtualMachineShape, base: vmBase, at: [], wrap: (o) => o },
  {
    name: "Drive",
    schema: driveInputsSchema,
    shape: driveShape,
    base: { machine: "54", disksize: 2 ** 30, mediaSource: "9" },
    at: [],
    wrap: (o) => o,
  },
  { name: "Nic", schema: nicInputsSchema, shape: nicShape, base: { machine: "1", vnet: "2" }, at: [], wrap: (o) => o },
  { name: "Device", schema: deviceInputsSchema, shape: deviceShape, base: { machine: "5", resourceGroup: UUID }, at: [], wrap: (o) => o },
  {
    name: "Vnet",
    schema: vnetInputsSchema,
    shape: vnetShape,
    at: [],
    wrap: (o) => o,
    base: { name: "lan", network: "10.0.0.0/24", dhcpStart: "10.0.0.10", dhcpStop: "10.0.0.20" },
  },
  { name: "VmSnapshot", schema: vmSnapshotInputsSchema, shape: vmSnapshotShape, base: { vm: "7", name: "s" }, at: [], wrap: (o) => o },
  { name: "VmPower", schema: vmPowerInputsSchema, shape: vmPowerShape, base: { vm: "7", state: "running" }, at: [], wrap: (o) => o },
  {
    name: "Webhook",
    schema: webhookInputsSchema,
    shape: webhookShape,
    base: { name: "alerts", url: "https://hooks.example/a" },
    at: [],
    wrap: (o) => o,
  },
  {
    name: "Task",
    schema: taskInputsSchema,
    shape: taskShape,
    base: { name: "t", webhook: "3" },
    baseFor: (field, value) => {
      if (field === "vm" || field === "user") return { name: "t", action: TASK_OBJECT_ACTIONS[field][0] };
      const object = (Object.keys(TASK_OBJECT_ACTIONS) as (keyof typeof TASK_OBJECT_ACTIONS)[]).find((o) =>
        (TASK_OBJECT_ACTIONS[o] as readonly unknown[]).includes(value),
      );
      return field === "action" && object ? { name: "t", [object]: "3" } : undefined;
    },
    at: [],
    wrap: (o) => o,
  },
  {
    name: "EventTrigger",
    schema: eventTriggerInputsSchema,
    shape: eventTriggerShape,
    base: { task: "4", type: "vms", event: "poweroff" },
    at: [],
    wrap: (o) => o,
  },
  { name: "Schedule", schema: scheduleInputsSchema, shape: scheduleShape, base: { name: "nightly" }, at: [], wrap: (o) => o },
  { name: "User", schema: userInputsSchema, shape: userShape, base: { name: "ci" }, at: [], wrap: (o) => o },
  { name: "ApiKey", schema: apiKeyInputsSchema, shape: apiKeyShape, base: { name: "ci" }, at: [], wrap: (o) => o },
  { name: "Group", schema: groupInputsSchema, shape: groupShape, base: { name: "students" }, at: [], wrap: (o) => o },
  {
    name: "Permission",
    schema: permissionInputsSchema,
    shape: permissionShape,
    base: { user: "3", table: "vms" },
    // A grant names exactly one grantee: a group's variations name no user.
    baseFor: (field) => (field === "group" ? { table: "vms" } : undefined),
    at: [],
    wrap: (o) => o,
  },
  // nested objects, declared inside a VM or a vnet
  {
    name: "VirtualMachine.cloneFrom",
    schema: virtualMachineInputsSchema,
    shape: cloneFromShape,
    base: { vm: "7" },
    baseFor: (field) => (field === "snapshot" ? {} : undefined),
    at: ["cloneFrom"],
    wrap: (o) => ({ ...vmBase, cloneFrom: o }),
  },
  {
    name: "VirtualMachine.cloudinitFiles[]",
    schema: virtualMachineInputsSchema,
    at: ["cloudinitFiles", 0],
    shape: shapeOf((inner(virtualMachineShape.cloudinitFiles) as z.ZodArray).element as z.ZodType),
    base: { name: "/user-data", contents: "" },
    wrap: (o) => ({ ...vmBase, cloudinitFiles: [o] }),
  },
  {
    name: "VirtualMachine.timeouts",
    schema: virtualMachineInputsSchema,
    shape: shapeOf(timeoutsSchema),
    base: {},
    at: ["timeouts"],
    wrap: (o) => ({ ...vmBase, timeouts: o }),
  },
  {
    name: "Vnet.advancedOptions",
    schema: vnetInputsSchema,
    shape: shapeOf(vnetShape.advancedOptions),
    base: {},
    at: ["advancedOptions"],
    wrap: (o) => ({ name: "lan", advancedOptions: o }),
  },
];

interface Cases {
  accept: unknown[];
  reject: unknown[];
}

const KEY: Cases = { accept: ["0", "7", "123456", 7, 0], reject: ["web", "-1", "7a", "", " 7", -1, 1.5, true] };
/** Refused for either end of the DHCP range in 10.0.0.0/24 (ending before it starts is a vnet.test.ts rule). */
const NOT_AN_ADDRESS_IN_NET = ["10.0.0.256", "10.0.0", "10.0.0.1.1", "", "::1", 10];

/** Hand-written cases where the JSON Schema cannot say what is valid. */
const handWritten: Record<string, Cases> = {
  "VirtualMachine.cluster": KEY,
  "VirtualMachine.machineType": {
    accept: ["pc", "q35", "pc-i440fx-9.2", "pc-q35-10.0", "pc-q35-rhel9.4.0"],
    reject: ["Q35", "PC", "pc-q35-", "pc-i440fx-", "i440fx", "q35-10.0", "virt", "", 35],
  },
  "VirtualMachine.cloudinitFiles": {
    accept: [
      [],
      [{ name: "/user-data", contents: "#cloud-config\n" }],
      [
        { name: "/a", contents: "" },
        { name: "/b", contents: "" },
      ],
    ],
    reject: [{ name: "/user-data", contents: "" }, [{ name: "/user-data" }], ["/user-data"], "x"],
  },
  "VirtualMachine.cloneFrom": {
    accept: [{ vm: "7" }, { vm: 7, quiesce: true, preserveMacs: false, preserveDeviceUuids: true, cluster: 2, description: "d" }],
    reject: [{}, { vm: "template" }, "7", 7],
  },
  "VirtualMachine.adopt": { accept: [true, false, "42"], reject: ["web", "", 1.5] },
  "VirtualMachine.timeouts": { accept: [{}, { create: 1, clone: 86400 }], reject: [{ create: 0 }, { crate: 5 }, 600] },
  "VirtualMachine.cloneFrom.vm": KEY,
  "VirtualMachine.cloneFrom.cluster": KEY,
  "Drive.machine": KEY,
  "Drive.mediaSource": KEY,
  "Nic.machine": KEY,
  "Nic.vnet": KEY,
  "Nic.macaddress": {
    accept: ["52:54:00:12:34:56", "52:54:00:ab:cd:ef", "52:54:00:AB:CD:EF", "ff:ff:ff:ff:ff:ff"],
    reject: ["52-54-00-ab-cd-ef", "52:54:00:ab:cd", "52:54:00:ab:cd:ef:01", "52:54:00:ab:cd:eg", "5254.00ab.cdef", "", 5],
  },
  "Nic.ipaddress": {
    accept: ["10.0.0.5", "0.0.0.0", "255.255.255.255", "192.168.1.1"],
    reject: ["10.0.0.256", "10.0.0", "", "::1", "host", 10],
  },
  "Device.machine": KEY,
  "Device.resourceGroup": {
    accept: [UUID, UUID.toUpperCase()],
    reject: ["nvidia-a100", UUID.slice(0, -1), `${UUID}0`, UUID.replace(/-/g, ""), "", 5],
  },
  "Device.settingsArgs": { accept: [{}, { model: "crb", count: 2 }], reject: [[], "x", null] },
  "Vnet.network": {
    accept: ["10.0.0.0/24", "10.0.0.0/8", "0.0.0.0/0"],
    reject: ["10.0.0.0", "10.0.0.0/33", "10.0.0.256/24", "10.0.0.0/", "10.0.0.0/-1", "", 24],
  },
  "Vnet.gateway": { accept: ["10.0.0.1", "10.0.0.254", ""], reject: ["10.0.0.256", "gw", "10.0.1.1", 1] },
  "Vnet.dhcpStart": { accept: ["10.0.0.0", "10.0.0.10", "10.0.0.20"], reject: [...NOT_AN_ADDRESS_IN_NET, "9.255.255.255"] },
  "Vnet.dhcpStop": { accept: ["10.0.0.10", "10.0.0.255"], reject: [...NOT_AN_ADDRESS_IN_NET, "10.0.1.0"] },
  "Vnet.advancedOptions": {
    accept: [{}, { dnsmasq: [] }, { dnsmasq: ["dhcp-option=6,10.0.0.1"] }],
    reject: [{ dnsmasq: "x" }, { dnsmasq: [1] }, { dnsmsq: [] }, []],
  },
  "Vnet.advancedOptions.dnsmasq": { accept: [[], ["a", "b"]], reject: ["a", [1], {}] },
  "VmSnapshot.vm": KEY,
  "VmSnapshot.restoreTrigger": { accept: ["2024-06-01T12:00:00Z", "", 1, 0], reject: [true, null, {}] },
  "VmPower.vm": KEY,
  "User.name": { accept: ["ci", "ci.bot@example.org", "a_b-c"], reject: ["", "two words", "a/b", "x".repeat(129), 5] },
  "User.email": { accept: ["ci@example.org"], reject: ["ci", "", 5] },
  "ApiKey.user": KEY,
  "ApiKey.expires": { accept: ["never", "2030-01-31", "2030-01-31T12:00:00Z"], reject: ["tomorrow", "2030-13-01", "", 0] },
  "ApiKey.ipAllowList": {
    accept: [[], [{ address: "10.0.0.5" }, { address: "2001:db8::/32", enabled: false }]],
    reject: [[{ address: "10.0.0.256" }], [{ address: "10.0.0.0/33" }], ["10.0.0.5"], [{ addr: "10.0.0.5" }]],
  },
  "ApiKey.rotation": { accept: ["2026-01-01", 3], reject: [true, null, {}] },
  "Webhook.url": {
    accept: ["https://hooks.example/a", "http://127.0.0.1:8080/x?y=1"],
    reject: ["ftp://hooks.example", "hooks.example", "", 5],
  },
  "Webhook.authorization": {
    accept: [
      { type: "none" },
      { type: "bearer", token: "t0ken" },
      { type: "apiKey", key: "raw" },
      { type: "basic", username: "u", password: "p:w" },
    ],
    reject: [{ type: "bearer" }, { type: "bearer", token: "Bearer t" }, { type: "apiKey", key: "ApiKey k" }, { type: "oauth" }, "t"],
  },
  "Webhook.headers": {
    accept: [
      [],
      [
        { name: "X-A", value: "1" },
        { name: "Content-Type", value: "text/plain" },
      ],
    ],
    reject: [[{ name: "", value: "1" }], [{ name: "X A", value: "1" }], [{ name: "X-A", value: "a\nb" }], [{ name: "X-A" }], "X-A: 1"],
  },
  "Webhook.timeout": { accept: [3, 120], reject: [2, 121, 3.5, "5"] },
  "Task.webhook": KEY,
  "Task.vm": KEY,
  "Task.user": KEY,
  "VirtualMachine.cloneFrom.snapshot": KEY,
  "Task.message": { accept: ["", '{"m": "${NAME} at ${TIMESTAMP}"}', "${DATE} ${RANDOM}"], reject: ["${HOST}", "${name}", 5, null] },
  "EventTrigger.task": KEY,
  "EventTrigger.object": KEY,
  "EventTrigger.tag": KEY,
  "Schedule.start": { accept: ["2030-01-31", "2030-01-31T12:00:00Z"], reject: ["tomorrow", "2030-13-01", "", 0] },
  "Schedule.startTimeOfDay": { accept: ["00:00", "23:59", "24:00"], reject: ["24:01", "7:00", "", 700] },
  "Schedule.endTimeOfDay": { accept: ["00:00", "24:00"], reject: ["25:00", "12:5", "", 1] },
  "Schedule.days": { accept: [[], ["monday"], ["monday", "sunday"]], reject: [["mon"], "monday", [1]] },
  "Schedule.tasks": { accept: [[], ["7", "8"]], reject: [["x"], "7", [1.5]] },
  "Group.users": { accept: [[], ["7", "8"], [7]], reject: [["x"], "7", [1.5]] },
  "Permission.user": KEY,
  "Permission.group": KEY,
  "Permission.table": { accept: ["vms", "/", "machine_nics"], reject: ["", "VMs", "a/b", "//", 5] },
  "Permission.row": { accept: ["7", "a1b2", 7], reject: ["0", 0, "", "a b", -1, 1.5] },
};
handWritten["Group.memberGroups"] = handWritten["Group.users"];
handWritten["Schedule.end"] = handWritten["Schedule.start"];
handWritten["ApiKey.ipDenyList"] = handWritten["ApiKey.ipAllowList"];
for (const p of places.filter((p) => p.at.length === 0).slice(1)) {
  if (p.shape.adopt) handWritten[`${p.name}.adopt`] = handWritten["VirtualMachine.adopt"];
  if (p.shape.machine) handWritten[`${p.name}.vm`] = KEY;
  handWritten[`${p.name}.timeouts`] = handWritten["VirtualMachine.timeouts"];
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
/** Cases from the field's JSON Schema: enumerations, numbers, booleans and plain strings. */
function generated(js: Obj): Cases | undefined {
  if (Array.isArray(js.enum)) {
    const values = js.enum as string[];
    const misses = values.flatMap((v) => [v.toUpperCase(), v.slice(0, -1), `${v} `]).concat("", "x");
    return { accept: values, reject: ([...new Set(misses.filter((m) => !values.includes(m)))].slice(0, 4) as unknown[]).concat(1) };
  }
  switch (js.type) {
    case "boolean":
      return { accept: [true, false], reject: ["true", "false", 1, 0] };
    case "integer":
    case "number": {
      const int = js.type === "integer";
      const exclusive = js.exclusiveMinimum as number | undefined;
      const min = (js.minimum as number | undefined) ?? (exclusive !== undefined ? exclusive + (int ? 1 : 0.001) : undefined);
      const max = js.maximum as number | undefined;
      const accept = [min ?? 0, max ?? (min ?? 0) + 1];
      const reject: unknown[] = [String(min ?? 0)];
      if (min !== undefined) reject.push(int ? min - 1 : (exclusive ?? min - 1));
      if (max !== undefined && max < MAX_SAFE) reject.push(max + 1);
      if (max !== undefined && max === MAX_SAFE) reject.push(2 ** 53);
      if (int) reject.push((min ?? 0) + 0.5);
      return { accept, reject };
    }
    case "string": {
      if (js.pattern || js.format) return undefined;
      const minLength = (js.minLength as number | undefined) ?? 0;
      const max = js.maxLength as number | undefined;
      const accept = ["x".repeat(minLength), max !== undefined ? "x".repeat(max) : "some text, ünïcødé"];
      const reject: unknown[] = [5, null];
      if (max !== undefined) reject.push("x".repeat(max + 1));
      if (minLength > 0) reject.push("x".repeat(minLength - 1));
      return { accept, reject };
    }
  }
  return undefined;
}

interface Field {
  place: Place;
  field: string;
  id: string;
  schema: z.ZodType;
  cases?: Cases;
}
const fields: Field[] = places.flatMap((place) =>
  Object.entries(place.shape).map(([field, schema]) => {
    const id = `${place.name}.${field}`;
    const js = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Obj;
    return { place, field, id, schema, cases: handWritten[id] ?? generated(js) };
  }),
);
const declare = (f: Field, value: unknown) => f.place.wrap({ ...(f.place.baseFor?.(f.field, value) ?? f.place.base), [f.field]: value });
const issuesOf = (schema: z.ZodType, input: unknown) => {
  const r = schema.safeParse(input);
  return r.success ? [] : r.error.issues;
};
const show = (v: unknown) => (typeof v === "string" && v.length > 24 ? `"${v.slice(0, 8)}…" (${v.length} chars)` : JSON.stringify(v));
const accepted = fields.flatMap((f) => (f.cases?.accept ?? []).map((v) => [f.id, show(v), f, v] as const));
const rejected = fields.flatMap((f) => (f.cases?.reject ?? []).map((v) => [f.id, show(v), f, v] as const));

describe("every input has accepted and refused cases (a new field fails here until it gets some)", () => {
  test.each(fields.map((f) => [f.id, f] as const))("%s", (_id, f) => {
    expect(f.cases?.accept.length ?? 0).toBeGreaterThan(0);
    expect(f.cases?.reject.length ?? 0).toBeGreaterThan(0);
  });
});

describe("a value at the field's bounds (each enumeration value, min, max, min and max length) is accepted", () => {
  test.each(accepted)("%s accepts %s", (_id, _v, f, value) => {
    expect(issuesOf(f.place.schema, declare(f, value)).map((i) => `${i.path.join(".")}: ${i.message}`)).toEqual([]);
  });
});

describe("a value just past the bounds (or of another type, or a near-miss of an enumeration value) is refused, naming the field's path", () => {
  test.each(rejected)("%s refuses %s", (_id, _v, f, value) => {
    const issues = issuesOf(f.place.schema, declare(f, value));
    expect(issues.length).toBeGreaterThan(0);
    for (const i of issues) expect(i.path.slice(0, f.place.at.length + 1)).toEqual([...f.place.at, f.field]);
  });
});

describe("a refusal says what it expects (never zod's bare 'Invalid input')", () => {
  const says = (f: Field, value: unknown) => {
    const messages = issuesOf(f.place.schema, declare(f, value)).map((i) => i.message);
    expect(messages.length).toBeGreaterThan(0);
    for (const m of messages) expect(m).not.toMatch(/^Invalid input$/);
  };
  test.each(rejected)("%s refused as %s", (_id, _v, f, value) => says(f, value));
});

describe("a required input left out is refused by its path", () => {
  const required = fields.filter((f) => !f.schema.safeParse(undefined).success);
  test.each(required.map((f) => [f.id, f] as const))("%s", (_id, f) => {
    const { [f.field]: _dropped, ...rest } = { ...f.place.base, [f.field]: f.cases?.accept[0] };
    const issues = issuesOf(f.place.schema, f.place.wrap(rest));
    expect(issues.map((i) => i.path.join("."))).toEqual([[...f.place.at, f.field].join(".")]);
  });
  test.each(required.map((f) => [f.id, f] as const))("%s: the message says what it expects", (_id, f) => {
    const { [f.field]: _dropped, ...rest } = { ...f.place.base, [f.field]: f.cases?.accept[0] };
    const messages = issuesOf(f.place.schema, f.place.wrap(rest)).map((i) => i.message);
    expect(messages.length).toBeGreaterThan(0);
    for (const m of messages) expect(m).not.toMatch(/^Invalid input$/);
  });
  test("the required inputs are the ones the resources cannot do without", () => {
    expect(required.map((f) => f.id)).toEqual([
      "VirtualMachine.name",
      "Drive.machine",
      "Nic.machine",
      "Nic.vnet",
      "Device.machine",
      "Device.resourceGroup",
      "Vnet.name",
      "VmSnapshot.vm",
      "VmSnapshot.name",
      "VmPower.vm",
      "VmPower.state",
      "Webhook.name",
      "Webhook.url",
      "Task.name",
      "EventTrigger.task",
      "EventTrigger.type",
      "EventTrigger.event",
      "Schedule.name",
      "User.name",
      "ApiKey.name",
      "Group.name",
      "Permission.table",
      "VirtualMachine.cloudinitFiles[].name",
      "VirtualMachine.cloudinitFiles[].contents",
    ]);
  });
});

describe("declarations are strict: an unknown input is refused and the message names it", () => {
  // Likely slips: the API's snake_case name, a plural, a misspelling.
  const typos = fields.flatMap((f) => {
    const api = fieldMeta(f.schema)?.api;
    const slips = [`${f.field}s`, f.field.slice(0, -1)];
    if (api && api !== f.field) slips.push(api);
    return slips.filter((s) => !(s in f.place.shape)).map((typo) => [f.id, typo, f] as const);
  });
  test.each(typos)("%s misspelled as %s", (_id, typo, f) => {
    const issues = issuesOf(f.place.schema, f.place.wrap({ ...f.place.base, [typo]: f.cases?.accept[0] }));
    expect(issues).toHaveLength(1);
    expect(issues[0].path).toEqual(f.place.at);
    expect(issues[0].message).toContain(`"${typo}"`);
  });
});

// ---- mapping: body and read-back of every accepted value ------------------------------------

/** What the body carries for a declared (parsed) value, per the API kinds of common.ts. */
function bodyValue(kind: ApiKind, v: unknown): unknown {
  switch (kind) {
    case "string":
    case "int":
    case "bool":
    case "json":
      return v;
    case "stringBool":
      return v ? "true" : "false";
    case "stringInt":
      return String(v);
    case "key":
      return String(v);
  }
}
/** Every form the platform may answer with for a declared (parsed) value. */
function answers(kind: ApiKind, compare: string | undefined, v: unknown): unknown[] {
  switch (kind) {
    case "bool":
    case "stringBool":
      return v ? [true, "true", 1] : [false, "false", 0];
    case "int":
    case "stringInt":
      return [v, String(v)];
    case "key":
      return [Number(v), String(v)];
    case "json":
      return [structuredClone(v)];
    case "string":
      return compare === "mac" ? [v, String(v).toUpperCase()] : [v];
  }
}

const mappedValues = fields.flatMap((f) => {
  const meta = fieldMeta(f.schema);
  // A field with a codec has its own API form (fieldCodec.test.ts).
  if (!meta?.api || meta.codec) return [];
  const kind = (meta.kind ?? "string") as ApiKind;
  return (f.cases?.accept ?? []).flatMap((value) => {
    // the value as a program's outputs hold it: parsed (keys as strings, MACs lowercased, ...)
    const parsed = f.place.schema.safeParse(declare(f, value));
    if (!parsed.success) return [];
    const declared = f.place.at.reduce<Obj>((o, k) => o[k] as Obj, parsed.data as Obj)[f.field];
    return [[f.id, show(value), { ...f, api: meta.api!, kind, compare: meta.compare }, declared] as const];
  });
});

describe("every accepted value of a mapped input goes out in the API's representation", () => {
  test.each(mappedValues)("%s = %s", (_id, _v, f, declared) => {
    expect(apiBodyOf(f.place.shape, { [f.field]: declared })).toEqual({ [f.api]: bodyValue(f.kind, declared) });
  });
});

describe("every accepted value reads back as declared from every form the API answers with (no perpetual diff)", () => {
  test.each(mappedValues)("%s = %s", (_id, _v, f, declared) => {
    for (const answer of answers(f.kind, f.compare, declared)) {
      expect(inputsFromApiRow(f.place.shape, { [f.api]: answer }, { [f.field]: declared })).toEqual({ [f.field]: declared });
    }
  });
});

describe("the kind of a mapped input matches what the input holds once parsed", () => {
  const holds: Record<ApiKind, (v: unknown) => boolean> = {
    bool: (v) => typeof v === "boolean",
    stringBool: (v) => typeof v === "boolean",
    int: (v) => Number.isInteger(v),
    stringInt: (v) => Number.isInteger(v),
    key: (v) => typeof v === "string" && /^\d+$/.test(v),
    string: (v) => typeof v === "string",
    json: (v) => typeof v === "object" && v !== null,
  };
  test.each(mappedValues)("%s = %s", (_id, _v, f, declared) => expect(holds[f.kind](declared)).toBe(true));
});

describe("an update body leaves out exactly the create-only inputs", () => {
  test.each(mappedValues.filter((row, i) => mappedValues.findIndex((r) => r[0] === row[0]) === i))("%s", (_id, _v, f, declared) => {
    const body = apiBodyOf(f.place.shape, { [f.field]: declared }, "update");
    expect(Object.keys(body)).toEqual(fieldMeta(f.schema)?.createOnly ? [] : [f.api]);
  });
});

test("every resource of the registry is declared here (a new resource needs a base declaration above)", () => {
  expect(RESOURCE_LIST.map((r) => r.token)).toEqual(places.filter((p) => p.at.length === 0).map((p) => p.name));
});
