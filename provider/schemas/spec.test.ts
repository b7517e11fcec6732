// The schemas against the platform's API contract (docs/platform-api.md): field names, the JSON
// types of request bodies, enumerations, required fields, limits and the update rules of PUT
// /v4/vms. The spec's tables are copied here verbatim; the first describe checks each copy is the
// spec's text.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { z } from "zod";
import { apiBodyOf, fieldMeta, type Shape } from "./common";
import { deviceInputsSchema, deviceShape } from "../resources/device/schema";
import { driveInputsSchema, driveShape } from "../resources/drive/schema";
import { nicInputsSchema, nicShape } from "../resources/nic/schema";
import { cloneFromShape, virtualMachineInputsSchema, virtualMachineShape } from "../resources/virtualMachine/schema";
import { vmSnapshotShape } from "../resources/vmSnapshot/schema";
import { vnetShape } from "../resources/vnet/schema";

const spec = readFileSync(resolve(__dirname, "../../docs/platform-api.md"), "utf8");

const TABLES = {
  // ### VM (`vms`)
  VirtualMachine: `
| $key | integer/string | VM key |
| name | string | required on create, unique |
| description | string | optional |
| machine | integer | machine key of the VM |
| cluster | string | target cluster key (numeric string), optional on create |
| enabled | boolean | |
| created, modified | integer | Unix timestamps (seconds) |
| is_snapshot | boolean | true for snapshot VMs |
| parent_vm | integer | used in filters to find snapshots of a VM |
| machine_type | string | valid: \`pc\`, \`q35\`, \`pc-i440fx-*\`, \`pc-q35-*\` |
| allow_hotplug | boolean | enables hot-add/hot-remove of drives and NICs |
| guest_agent | boolean/string | |
| cpu_cores | integer | default 1 |
| cpu_type | string | |
| ram | integer | megabytes, default 1024; bounds under Limits |
| console | string | \`spice\`, \`vnc\`, \`none\` |
| video | string | \`qxl\`, \`virtio\`, \`std\`, \`cirrus\` |
| sound | string | |
| os_family | string | |
| rtc_base | string | \`utc\`, \`localtime\` |
| boot_order | string | |
| boot_delay | integer | |
| console_pass_enabled | boolean | |
| console_pass_hash | string | empty string when unused |
| usb_tablet, usb_legacy, serial_port | boolean | |
| uefi, secure_boot | boolean/string | |
| nested_virtualization, disable_hypervisor, show_advanced | boolean/string | |
| uuid | string | |
| need_restart | boolean | |
| console_status | integer | |
| cloudinit_datasource | string | \`nocloud\` and \`none\` occur |
| cloudinit_files | array | items: \`name\` (string), \`contents\` (string) |
| imported | boolean | |
| created_from | string | |
| migration_method | string | |
| note | string | |
| power_cycle_timeout | integer | |
| allow_export | boolean | |
| creator | string | |
`,
  // ### Machine drive (`machine_drives`)
  Drive: `
| machine | string | required on create, machine key |
| name | string | optional |
| description | string | optional |
| media | string | \`disk\`, \`cdrom\`, \`import\`, \`clone\`, \`efidisk\` |
| interface | string | \`virtio-scsi\`, \`ide\`, \`ahci\` and others |
| disksize | integer | bytes; for new disks; can only be increased |
| preferred_tier | string | storage tier \`1\` to \`5\` |
| media_source | string/integer | key of the source media for import, clone, cdrom |
| show_pt | string | \`true\`/\`false\`: override the media source's default tier |
`,
  // ### Machine NIC (`machine_nics`)
  Nic: `
| machine | string | required on create |
| vnet | string | required on create, key of a vnet |
| name | string | optional |
| interface | string | \`virtio\`, \`e1000\`, \`rtl8139\` |
| enabled | boolean | optional |
`,
  // ### Machine device (`machine_devices`)
  Device: `
| machine | string | required |
| resource_group | string | required, UUID of the hardware resource group |
| settings_args | object | optional, device-specific settings; empty object for plain passthrough |
`,
  // ### Virtual network (`vnets`)
  Vnet: `
| $key | integer | |
| name, description | string | |
| type | string | \`internal\` occurs |
| layer2_type | string | \`vxlan\` occurs |
| network | string | CIDR block |
| gateway | string | may be empty |
| dnslist | string | |
| mtu | integer/string | |
| dhcp_enabled | boolean | |
| dhcp_start, dhcp_stop | string | IP addresses bounding the DHCP pool |
| rate_limit | integer | unit given by \`rate_limit_type\` |
| rate_limit_burst | integer | |
| rate_limit_type | string | \`mbytes/second\` occurs |
| advanced_options | object | options passed to services in the network; key \`dnsmasq\` holds an array of strings |
`,
  // ### VM actions: the params of clone and snapshot
  cloneFrom: `
| clone | \`name\` (string, required), \`description\` (string), \`quiesce\` (string true/false), \`preserve_macs\` (string true/false), \`preserve_device_uuids\` (string true/false), \`cluster\` (string, target cluster key) | \`response\` object with \`vmkey\`, \`machinekey\`, \`machinestatuskey\`, \`clusterkey\` |
`,
  VmSnapshot: `
| snapshot | \`name\` (string), \`description\` (string) | accepted |
`,
};
type Resource = keyof typeof TABLES;
const SHAPES: Record<Resource, Shape> = {
  VirtualMachine: virtualMachineShape,
  Drive: driveShape,
  Nic: nicShape,
  Device: deviceShape,
  Vnet: vnetShape,
  cloneFrom: cloneFromShape,
  VmSnapshot: vmSnapshotShape,
};
const PUT_VMS =
  "**PUT /v4/vms/{vm_key}** updates VM-level settings: ram (integer MB), cpu_cores (integer), console (`spice`, `vnc`, `none`), video (`qxl`, `virtio`, `std`, `cirrus`), show_advanced, nested_virtualization, disable_hypervisor, guest_agent, uefi, secure_boot (strings `true`/`false`). Effect timing: ram, cpu_cores, nested_virtualization, disable_hypervisor, uefi, secure_boot usually need a restart (CPU and RAM changes always need a power cycle); console, video and guest_agent apply at next start.";
const BOOLEANS =
  "- Booleans in request bodies appear both as JSON booleans and as the strings `true` / `false` (for example `guest_agent`, `uefi`, `secure_boot`, `quiesce`). Both forms occur in the interface; the string form is used for most VM and clone settings, JSON booleans for `enabled`, `allow_hotplug` (on creation), `unplug`, `graceful`.";
const LIMIT_RAM = "| RAM | at least 512 MB, at most 1048576 MB | VM ram |";
const LIMIT_TIER = "| storage tier | 1 to 5 | drive preferred_tier |";
const LIMIT_DRIVE = "| drive size | can only grow, never shrink | PUT machine_drives |";
const POST_VMS = `
| name | string | yes | unique |
| description | string | no | |
| cluster | string | no | numeric key |
| ram | integer | no | MB, default 1024 |
| cpu_cores | integer | no | default 1 |
| guest_agent | string/boolean | no | |
| console_pass_hash | string | no | empty when unused |
| video | string | no | virtio, std, cirrus, qxl |
| rtc_base | string | no | utc, localtime |
| uefi, secure_boot | string/boolean | no | |
| machine_type, cpu_type, os_family, boot_order, note | string | no | |
| allow_hotplug | boolean | no | |
| cloudinit_datasource | string | no | |
| cloudinit_files | array of objects with \`name\`, \`contents\` | no | |
`;

interface SpecField {
  api: string;
  type: string;
  notes: string;
}
/** Rows of a table (`| a, b | type | notes |`), or the params of an action row (`` `a` (type, notes) ``). */
function parse(block: string): SpecField[] {
  const action = /^\| (clone|snapshot) \|/m.test(block);
  if (action) {
    return [...block.matchAll(/`(\w+)` \(([^)]*)\)/g)].map(([, api, inside]) => ({ api, type: inside.split(/[ ,]/)[0], notes: inside }));
  }
  return block
    .trim()
    .split("\n")
    .flatMap((line) => {
      const [names, type, notes] = line
        .split("|")
        .slice(1, -1)
        .map((c) => c.trim());
      return names.split(", ").map((api) => ({ api, type, notes }));
    });
}
const specFields = Object.fromEntries(Object.entries(TABLES).map(([r, b]) => [r, parse(b)])) as Record<Resource, SpecField[]>;

const mapped = (shape: Shape) =>
  Object.entries(shape).flatMap(([field, schema]) => {
    const m = fieldMeta(schema);
    return m?.api ? [{ field, schema, api: m.api, kind: m.kind ?? "string", meta: m }] : [];
  });

describe("the tables copied here are the spec's text", () => {
  const blocks = [
    ...Object.entries(TABLES),
    ["PUT /v4/vms", PUT_VMS],
    ["booleans", BOOLEANS],
    ["limits", [LIMIT_RAM, LIMIT_TIER, LIMIT_DRIVE].join("\n")],
    ["POST /v4/vms", POST_VMS],
  ];
  const lines = blocks.flatMap(([name, block]) =>
    block
      .trim()
      .split("\n")
      .map((line) => [name, line] as const),
  );
  test.each(lines)("%s: %s", (_name, line) => expect(spec).toContain(line));
  test("the copied resource tables hold every row of the spec's tables", () => {
    const headings: Record<string, string> = {
      VirtualMachine: "### VM (`vms`)",
      Drive: "### Machine drive (`machine_drives`)",
      Nic: "### Machine NIC (`machine_nics`)",
      Device: "### Machine device (`machine_devices`)",
      Vnet: "### Virtual network (`vnets`)",
    };
    for (const [resource, heading] of Object.entries(headings)) {
      const section = spec.slice(spec.indexOf(heading) + heading.length).split("\n### ")[0];
      const rows = section.split("\n").filter((l) => l.startsWith("| ") && !l.startsWith("| Field "));
      expect(rows.join("\n")).toEqual(TABLES[resource as Resource].trim());
    }
  });
});

/**
 * API names sent that the spec's tables do not list: fields of the real platform that the
 * emulator models (reviewed; not in the contract, so kept to this list).
 */
const BEYOND_SPEC: Record<Resource, string[]> = {
  VirtualMachine: ["on_power_loss"],
  Drive: ["enabled", "readonly"],
  Nic: ["description", "macaddress", "ipaddress"],
  Device: ["name", "type", "enabled", "optional"],
  Vnet: [],
  cloneFrom: [],
  VmSnapshot: ["quiesce"],
};

describe("every API name a schema sends is in the spec's table for its resource (or in the reviewed list of platform fields beyond it)", () => {
  test.each(Object.keys(TABLES) as Resource[])("%s", (resource) => {
    const names = new Set(specFields[resource].map((f) => f.api));
    expect(
      mapped(SHAPES[resource])
        .map((f) => f.api)
        .filter((a) => !names.has(a)),
    ).toEqual(BEYOND_SPEC[resource]);
  });
});

describe("the inputs cover the spec's writable fields", () => {
  const readOnly = [
    "$key",
    "machine",
    "created",
    "modified",
    "is_snapshot",
    "parent_vm",
    "uuid",
    "need_restart",
    "console_status",
    "imported",
    "created_from",
    "creator",
  ];
  test.each(["VirtualMachine", "Drive", "Nic", "Device", "Vnet", "cloneFrom", "VmSnapshot"] as Resource[])(
    "%s maps every field of its table",
    (resource) => {
      const apis = mapped(SHAPES[resource]).map((f) => f.api);
      // the VM's `machine` is read-only, a drive's is required: only the VM table has read-only rows
      const writable = specFields[resource]
        .map((f) => f.api)
        .filter((a) => !(resource === "VirtualMachine" && readOnly.includes(a)) && a !== "$key");
      // the clone's name is the VM's name
      expect(writable.filter((a) => !apis.includes(a) && !(resource === "cloneFrom" && a === "name"))).toEqual([]);
    },
  );
  test("every field of POST /v4/vms is a VM input sent on create", () => {
    const body = apiBodyOf(
      virtualMachineShape,
      Object.fromEntries(mapped(virtualMachineShape).map((f) => [f.field, f.kind === "json" ? [] : "1"])),
      "create",
    );
    expect(
      parse(POST_VMS)
        .map((f) => f.api)
        .filter((a) => !(a in body)),
    ).toEqual([]);
  });
});

// ---- JSON types of request bodies --------------------------------------------------------------

const jsonType = (v: unknown) => (Array.isArray(v) ? "array" : v === null ? "null" : typeof v === "number" ? "integer" : typeof v);
/** "boolean/string" → ["boolean", "string"]; "array of objects ..." → ["array"]. */
const specTypes = (type: string) => type.split(" ")[0].split("/");
const sample: Record<string, unknown> = { bool: true, stringBool: true, int: 42, stringInt: 3, key: "7", string: "x" };
const typed = (Object.keys(TABLES) as Resource[]).flatMap((resource) =>
  mapped(SHAPES[resource]).flatMap((f) => {
    const row = specFields[resource].find((s) => s.api === f.api);
    if (!row) return [];
    const js = z.toJSONSchema(f.schema, { io: "input", unrepresentable: "any" }) as { type?: string };
    const input = f.kind === "json" ? (js.type === "array" ? [] : {}) : sample[f.kind];
    return [[`${resource}.${f.field}`, row.type, f.api, apiBodyOf(SHAPES[resource], { [f.field]: input })[f.api]] as const];
  }),
);
describe("every mapped field goes out in the JSON type the spec's table gives it (row keys and show_pt as strings)", () => {
  test.each(typed)("%s: %s", (_id, type, _api, value) => expect(specTypes(type)).toContain(jsonType(value)));
});

describe("request booleans: strings for most VM and clone settings, JSON booleans for enabled and allow_hotplug", () => {
  const kindOf = (shape: Shape, api: string) => mapped(shape).find((f) => f.api === api)?.kind;
  test.each(["guest_agent", "uefi", "secure_boot", "nested_virtualization", "disable_hypervisor", "show_advanced"])(
    "VM %s is a string boolean",
    (api) => {
      expect(kindOf(virtualMachineShape, api)).toBe("stringBool");
    },
  );
  test.each(["quiesce", "preserve_macs", "preserve_device_uuids"])("clone %s is a string boolean", (api) =>
    expect(kindOf(cloneFromShape, api)).toBe("stringBool"),
  );
  test.each([
    ["VirtualMachine", "enabled"],
    ["VirtualMachine", "allow_hotplug"],
    ["Drive", "enabled"],
    ["Nic", "enabled"],
    ["Device", "enabled"],
  ] as [Resource, string][])("%s %s is a JSON boolean", (resource, api) => expect(kindOf(SHAPES[resource], api)).toBe("bool"));
  test("a VM body carries both forms as the spec shows them", () => {
    expect(apiBodyOf(virtualMachineShape, { uefi: true, secureBoot: false, guestAgent: true, enabled: false, allowHotplug: true })).toEqual(
      {
        uefi: "true",
        secure_boot: "false",
        guest_agent: "true",
        enabled: false,
        allow_hotplug: true,
      },
    );
  });
});

// ---- values ------------------------------------------------------------------------------------

describe("an enumeration accepts every value the spec lists for it", () => {
  const listed = (Object.keys(TABLES) as Resource[]).flatMap((resource) =>
    mapped(SHAPES[resource]).flatMap((f) => {
      const row = specFields[resource].find((s) => s.api === f.api);
      if (!row || f.kind !== "string") return [];
      // `pc-q35-*` stands for a version
      return [...row.notes.matchAll(/`([^`]+)`/g)].map(([, v]) => [`${resource}.${f.field}`, v.replace("*", "9.2"), f.schema] as const);
    }),
  );
  test("the spec's listed values are found (sanity)", () => expect(listed.length).toBeGreaterThanOrEqual(22));
  test.each(listed)("%s accepts %s", (_id, value, schema) => expect(schema.safeParse(value).success).toBe(true));
  test.each([
    ["console", ["spice", "vnc", "none"]],
    ["video", ["qxl", "virtio", "std", "cirrus"]],
  ] as const)("PUT /v4/vms %s takes %j", (field, values) => {
    for (const v of values) expect(virtualMachineShape[field].safeParse(v).success).toBe(true);
  });
});

describe("a field the spec marks required is required by the schema, and the refusal names it", () => {
  const bases: Partial<Record<Resource, [z.ZodType, Record<string, unknown>]>> = {
    VirtualMachine: [virtualMachineInputsSchema, { name: "web" }],
    Drive: [driveInputsSchema, { machine: "1", disksize: 2 ** 30 }],
    Nic: [nicInputsSchema, { machine: "1", vnet: "2" }],
    Device: [deviceInputsSchema, { machine: "1", resourceGroup: "9a8b7c6d-5e4f-4321-8fed-cba987654321" }],
  };
  const required = (Object.keys(bases) as Resource[]).flatMap((resource) =>
    specFields[resource]
      .filter((s) => /^required/.test(s.notes))
      .map((s) => [resource, s.api, mapped(SHAPES[resource]).find((f) => f.api === s.api)?.field] as const),
  );
  test("the spec's required fields are found (sanity)", () => expect(required.map(([r, a]) => `${r}.${a}`)).toHaveLength(6));
  test.each(required)("%s %s", (resource, _api, field) => {
    const [schema, base] = bases[resource]!;
    const { [field!]: _left, ...rest } = base;
    const r = schema.safeParse(rest);
    expect(r.success ? [] : r.error.issues.map((i) => i.path.join("."))).toEqual([field]);
  });
});

describe("limits", () => {
  const ram = (v: number) => virtualMachineInputsSchema.safeParse({ name: "web", ram: v });
  test("RAM: at least 512 MB, at most 1048576 MB, refused past either bound with the bound in the message", () => {
    const [, min, max] = /at least (\d+) MB, at most (\d+) MB/.exec(LIMIT_RAM)!.map(Number);
    expect([ram(min).success, ram(max).success]).toEqual([true, true]);
    for (const [v, bound] of [
      [min - 1, min],
      [max + 1, max],
    ]) {
      const r = ram(v);
      expect(r.success ? [] : r.error.issues.map((i) => [i.path.join("."), i.message])).toEqual([
        ["ram", expect.stringContaining(`${bound} MB`)],
      ]);
    }
  });
  test("storage tier 1 to 5, sent as the string the drive table gives (preferred_tier string)", () => {
    const [, min, max] = /(\d+) to (\d+)/.exec(LIMIT_TIER)!.map(Number);
    const drive = (tier: number) => driveInputsSchema.safeParse({ machine: "1", disksize: 2 ** 30, preferredTier: tier });
    for (let t = min; t <= max; t++) {
      expect(drive(t).success).toBe(true);
      expect(apiBodyOf(driveShape, { preferredTier: t })).toEqual({ preferred_tier: String(t) });
    }
    for (const t of [min - 1, max + 1]) {
      const r = drive(t);
      expect(r.success ? [] : r.error.issues.map((i) => [i.path.join("."), i.message])).toEqual([
        ["preferredTier", "storage tier must be 1 to 5"],
      ]);
    }
  });
  test("a drive only grows: disksize is grow-only (a smaller size replaces the drive)", () => {
    expect(LIMIT_DRIVE).toContain("can only grow");
    expect(fieldMeta(driveShape.disksize)?.onChange).toBe("growOnly");
  });
});

describe("PUT /v4/vms: what it updates, in which form, and when it takes effect", () => {
  const [updates, timing] = PUT_VMS.split("Effect timing:");
  const names = (text: string) =>
    [...text.matchAll(/\b([a-z]+(?:_[a-z]+)+|ram|console|video|uefi)\b/g)].map(([n]) => n).filter((n) => n !== "vm_key");
  const byApi = (api: string) => mapped(virtualMachineShape).find((f) => f.api === api);
  const updatable = [...new Set(names(updates))];
  const stringBooleans = names(updates.slice(updates.indexOf("show_advanced")));
  const [restart, nextStart] = timing.split(";").map(names);

  test("the sentence is parsed (sanity)", () => {
    expect(updatable).toHaveLength(10);
    expect(stringBooleans).toEqual(["show_advanced", "nested_virtualization", "disable_hypervisor", "guest_agent", "uefi", "secure_boot"]);
    expect(restart).toEqual(["ram", "cpu_cores", "nested_virtualization", "disable_hypervisor", "uefi", "secure_boot"]);
    expect(nextStart).toEqual(["console", "video", "guest_agent"]);
  });
  test.each(updatable)("%s is an input sent in update bodies (not create-only)", (api) => {
    const f = byApi(api)!;
    expect(
      apiBodyOf(virtualMachineShape, { [f.field]: f.kind === "int" ? 1024 : f.kind.endsWith("Bool") ? true : "vnc" }, "update"),
    ).toHaveProperty([api]);
  });
  test.each(stringBooleans)("%s goes out as the strings true/false", (api) => {
    const f = byApi(api)!;
    expect([true, false].map((v) => apiBodyOf(virtualMachineShape, { [f.field]: v }, "update")[api])).toEqual(["true", "false"]);
  });
  test.each(restart)("%s needs a power cycle", (api) => expect(byApi(api)!.meta.onChange).toBe("powerCycle"));
  test.each(nextStart)("%s applies at the next start", (api) => expect(byApi(api)!.meta.onChange).toBe("nextStart"));
});
