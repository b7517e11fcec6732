import type { z } from "zod";
import { problems } from "../../test/schemaProblems";
import { DEFAULT_TIMEOUTS, fieldMeta, timeoutsSchema } from "./common";
import { deviceInputsSchema, deviceShape, type DeviceInputs } from "../resources/device/schema";
import { driveInputsSchema, driveShape, type DriveInputs } from "../resources/drive/schema";
import { RESOURCE_LIST } from "../resources";
import { nicInputsSchema, nicShape, type NicInputs } from "../resources/nic/schema";
import { toCloneParams, virtualMachineRows, virtualMachineInputsSchema } from "../resources/virtualMachine/schema";
import { toVmSnapshotApiParams, vmSnapshotInputsSchema } from "../resources/vmSnapshot/schema";
import { vnetInputsSchema, vnetShape, type VnetInputs } from "../resources/vnet/schema";
import { mappingOf } from "./fieldCodec";

const { toApiBody: toDriveApiBody, fromApiRow: fromDriveApiRow } = mappingOf<DriveInputs>(driveShape);
const { toApiBody: toNicApiBody, fromApiRow: fromNicApiRow } = mappingOf<NicInputs>(nicShape);
const { toApiBody: toDeviceApiBody } = mappingOf<DeviceInputs>(deviceShape);
const { fromApiRow: fromVnetApiRow } = mappingOf<VnetInputs>(vnetShape);

/** "path: message" per issue, as check() reports them: every message names its field. */
const fieldsOf = (input: unknown, schema: z.ZodType) => problems(schema, input).map((p) => p.split(":")[0]);

describe("the registry", () => {
  test("holds the resources with their tables", () => {
    expect(RESOURCE_LIST.map((r) => [r.token, r.table])).toEqual([
      ["VirtualMachine", "vms"],
      ["Drive", "machine_drives"],
      ["Nic", "machine_nics"],
      ["Device", "machine_devices"],
      ["Vnet", "vnets"],
      ["VmSnapshot", "machine_snapshots"],
      ["VmPower", "vms"],
      ["Webhook", "webhook_urls"],
      ["Task", "tasks"],
      ["EventTrigger", "task_events"],
      ["Schedule", "task_schedules"],
      ["User", "users"],
      ["ApiKey", "user_api_keys"],
      ["Group", "groups"],
      ["Permission", "permissions"],
    ]);
  });
  test.each(RESOURCE_LIST.map((r) => [r.token, r] as const))("every %s input has a description (schema.json docs)", (_t, r) => {
    const undocumented = Object.entries(r.inputs.shape).filter(([, s]) => !fieldMeta(s)?.description);
    expect(undocumented.map(([k]) => k)).toEqual([]);
  });
  // Inputs share an API field only as owners of different tables (a task's webhook, vm or user: `owner` = "<table>/<key>").
  test.each(RESOURCE_LIST.map((r) => [r.token, r] as const))("%s API names are snake_case and unique", (_t, r) => {
    const metas = Object.values(r.inputs.shape).flatMap((s) => {
      const m = fieldMeta(s);
      return m?.api ? [m] : [];
    });
    for (const m of metas) expect(m.api).toMatch(/^[a-z][a-z0-9_]*$/);
    const owners = metas.filter((m) => m.references && metas.filter((o) => o.api === m.api).length > 1);
    expect(new Set(owners.map((m) => m.references?.table)).size).toBe(owners.length);
    const apis = metas.filter((m) => !owners.includes(m)).map((m) => m.api);
    expect(new Set(apis).size).toBe(apis.length);
    expect(apis.filter((a) => owners.some((m) => m.api === a))).toEqual([]);
  });
});

describe("timeouts", () => {
  test("defaults are the upper end of the spec's suggested client timeouts", () => {
    expect(DEFAULT_TIMEOUTS).toMatchObject({
      create: 600,
      clone: 1800,
      snapshot: 300,
      restore: 900,
      powerChange: 60,
      delete: 300,
      gracefulShutdown: 120,
      forcedShutdown: 30,
      reboot: 120,
    });
  });
  test("are positive seconds and unknown operations are refused", () => {
    expect(fieldsOf({ create: 0 }, timeoutsSchema)).toEqual(["create"]);
    expect(problems(timeoutsSchema, { crate: 5 })[0]).toMatch(/crate/);
    expect(timeoutsSchema.parse({ clone: 60 })).toEqual({ clone: 60 });
  });
});

describe("VirtualMachine inputs", () => {
  const vm = virtualMachineInputsSchema;
  test("a name is all it needs; the power-cycle policy defaults to restart", () => {
    expect(vm.parse({ name: "web" })).toEqual({ name: "web", powerCyclePolicy: "restart" });
  });
  test("keys given as numbers become strings", () => {
    expect(vm.parse({ name: "web", cluster: 1, cloneFrom: { vm: 7, cluster: 2 } })).toMatchObject({
      cluster: "1",
      cloneFrom: { vm: "7", cluster: "2" },
    });
  });
  test("RAM is 512 to 1048576 MB", () => {
    expect(fieldsOf({ name: "a", ram: 511 }, vm)).toEqual(["ram"]);
    expect(fieldsOf({ name: "a", ram: 1048577 }, vm)).toEqual(["ram"]);
    expect(fieldsOf({ name: "a", ram: 512 }, vm)).toEqual([]);
    expect(fieldsOf({ name: "a", ram: 1048576 }, vm)).toEqual([]);
    expect(problems(vm, { name: "a", ram: 100 })).toEqual(["ram: RAM must be at least 512 MB"]);
  });
  test("cpuCores is a whole number of at least 1", () => {
    expect(fieldsOf({ name: "a", cpuCores: 0 }, vm)).toEqual(["cpuCores"]);
    expect(fieldsOf({ name: "a", cpuCores: 1.5 }, vm)).toEqual(["cpuCores"]);
  });
  test.each(["pc", "q35", "pc-i440fx-9.2", "pc-q35-10.0"])("machine type %s is valid", (t) =>
    expect(fieldsOf({ name: "a", machineType: t }, vm)).toEqual([]),
  );
  test.each(["i440fx", "pc-q35-", "virt", "Q35"])("machine type %s is refused with the valid options", (t) => {
    expect(problems(vm, { name: "a", machineType: t })).toEqual(["machineType: valid options: pc, q35, pc-i440fx-*, pc-q35-*"]);
  });
  test("console, video and rtcBase are enumerations", () => {
    expect(fieldsOf({ name: "a", console: "rdp", video: "svga", rtcBase: "gmt" }, vm).sort()).toEqual(["console", "rtcBase", "video"]);
  });
  test("secure boot needs UEFI", () => {
    expect(problems(vm, { name: "a", secureBoot: true })).toEqual(["secureBoot: secure boot needs uefi: true"]);
    expect(problems(vm, { name: "a", secureBoot: true, uefi: false })).toHaveLength(1);
    expect(problems(vm, { name: "a", secureBoot: true, uefi: true })).toEqual([]);
  });
  test("cloud-init file names are unique", () => {
    const files = [
      { name: "/user-data", contents: "a" },
      { name: "/user-data", contents: "b" },
    ];
    expect(fieldsOf({ name: "a", cloudinitFiles: files }, vm)).toEqual(["cloudinitFiles.1.name"]);
  });
  test("unknown inputs are refused by name", () => {
    expect(problems(vm, { name: "a", cpus: 2 })[0]).toMatch(/cpus/);
  });
  test("powerState and powerCyclePolicy are enumerations", () => {
    expect(fieldsOf({ name: "a", powerState: "on", powerCyclePolicy: "force" }, vm).sort()).toEqual(["powerCyclePolicy", "powerState"]);
  });
});

describe("VirtualMachine mapping", () => {
  test("API body: snake_case, string booleans for VM settings, JSON booleans for enabled and allow_hotplug", () => {
    const inputs = vm({
      name: "web",
      cpuCores: 2,
      uefi: true,
      secureBoot: true,
      guestAgent: false,
      enabled: true,
      allowHotplug: false,
      cluster: "1",
      powerState: "running",
    });
    expect(virtualMachineRows.toApiBody(inputs)).toEqual({
      name: "web",
      cpu_cores: 2,
      uefi: "true",
      secure_boot: "true",
      guest_agent: "false",
      enabled: true,
      allow_hotplug: false,
      cluster: "1",
    });
  });
  test("an update body leaves the create-only fields out", () => {
    expect(
      virtualMachineRows.toApiBody(vm({ name: "web", cluster: "1", cloudinitFiles: [{ name: "/x", contents: "" }] }), "update"),
    ).toEqual({
      name: "web",
    });
  });
  test("a row reads back as the declared inputs: string/number booleans, numeric strings, the declared machine type spelling", () => {
    const row = {
      $key: 3,
      name: "web",
      cpu_cores: "2",
      ram: 2048,
      uefi: "true",
      guest_agent: 0,
      allow_hotplug: 1,
      machine_type: "pc-q35-10.0",
      cluster: 1,
      cloudinit_files: [],
    };
    const declared = {
      name: "web",
      cpuCores: 2,
      ram: 2048,
      uefi: true,
      guestAgent: false,
      allowHotplug: true,
      machineType: "q35",
      cluster: "1",
      cloudinitFiles: [],
    };
    expect(virtualMachineRows.fromApiRow(row, declared)).toEqual({
      name: "web",
      cpuCores: 2,
      ram: 2048,
      uefi: true,
      guestAgent: false,
      allowHotplug: true,
      machineType: "q35",
      cluster: "1",
    });
  });
  test("only declared fields are read back when the declaration is given", () => {
    expect(virtualMachineRows.fromApiRow({ name: "web", ram: 1024, console: "vnc" }, { name: "web" })).toEqual({ name: "web" });
  });
  test("another version of a declared machine type reads back as it is (a real change)", () => {
    expect(virtualMachineRows.fromApiRow({ machine_type: "pc-q35-10.0" }, { machineType: "pc-q35-9.0" })).toEqual({
      machineType: "pc-q35-10.0",
    });
  });
});
function vm(input: Record<string, unknown>) {
  return virtualMachineInputsSchema.parse(input);
}

describe("Drive", () => {
  const base = { machine: 54, disksize: 10 * 2 ** 30 };
  test("defaults: a virtio-scsi disk; the machine key becomes a string", () => {
    expect(driveInputsSchema.parse(base)).toEqual({ ...base, machine: "54", media: "disk", interface: "virtio-scsi" });
  });
  test("a new disk needs a disksize in positive whole bytes", () => {
    expect(problems(driveInputsSchema, { machine: "54" })).toEqual(["disksize: a new disk needs a disksize (bytes)"]);
    expect(fieldsOf({ machine: "54", disksize: 1.5 }, driveInputsSchema)).toEqual(["disksize"]);
    expect(fieldsOf({ machine: "54", disksize: -1 }, driveInputsSchema)).toEqual(["disksize"]);
  });
  test.each(["import", "clone", "cdrom"])("media %s needs a mediaSource", (media) => {
    expect(problems(driveInputsSchema, { machine: "54", media })).toEqual([`mediaSource: media '${media}' needs a mediaSource`]);
    expect(problems(driveInputsSchema, { machine: "54", media, mediaSource: 9 })).toEqual([]);
  });
  test("preferredTier is 1 to 5", () => {
    expect(problems(driveInputsSchema, { ...base, preferredTier: 0 })).toEqual(["preferredTier: storage tier must be 1 to 5"]);
    expect(fieldsOf({ ...base, preferredTier: 6 }, driveInputsSchema)).toEqual(["preferredTier"]);
    expect(fieldsOf({ ...base, preferredTier: 5 }, driveInputsSchema)).toEqual([]);
  });
  test("the machine is a key (digits)", () => {
    expect(fieldsOf({ ...base, machine: "web" }, driveInputsSchema)).toEqual(["machine"]);
  });
  test("API body: preferred_tier, show_pt and keys as strings; read back as the inputs", () => {
    const inputs = driveInputsSchema.parse({ ...base, preferredTier: 3, showPt: true });
    const body = toDriveApiBody(inputs);
    expect(body).toEqual({
      machine: "54",
      media: "disk",
      interface: "virtio-scsi",
      disksize: base.disksize,
      preferred_tier: "3",
      show_pt: "true",
    });
    expect(fromDriveApiRow({ ...body, show_pt: "true", disksize: String(base.disksize) })).toEqual({ ...inputs });
  });
});

describe("Nic", () => {
  test("enabled defaults to true (peers shipped NICs disabled when omitted) and the interface to virtio", () => {
    expect(nicInputsSchema.parse({ machine: 54, vnet: 3 })).toEqual({ machine: "54", vnet: "3", interface: "virtio", enabled: true });
  });
  test("MAC addresses are validated and lowercased", () => {
    expect(nicInputsSchema.parse({ machine: 1, vnet: 1, macaddress: "52:54:00:AB:CD:EF" }).macaddress).toBe("52:54:00:ab:cd:ef");
    expect(fieldsOf({ machine: 1, vnet: 1, macaddress: "52-54-00-ab-cd-ef" }, nicInputsSchema)).toEqual(["macaddress"]);
  });
  test("the IP address is an IPv4 address", () => {
    expect(fieldsOf({ machine: 1, vnet: 1, ipaddress: "10.0.0.300" }, nicInputsSchema)).toEqual(["ipaddress"]);
  });
  test.each(["virtio", "e1000", "e1000e", "rtl8139", "pcnet", "igb", "vmxnet3"])("interface %s is valid", (i) => {
    expect(fieldsOf({ machine: 1, vnet: 1, interface: i }, nicInputsSchema)).toEqual([]);
  });
  test("the machine and vnet are required", () => {
    expect(fieldsOf({}, nicInputsSchema).sort()).toEqual(["machine", "vnet"]);
  });
  test("API body uses a JSON boolean for enabled; a row reads back with a lowercase MAC", () => {
    expect(toNicApiBody(nicInputsSchema.parse({ machine: 1, vnet: 2, enabled: false }))).toEqual({
      machine: "1",
      vnet: "2",
      interface: "virtio",
      enabled: false,
    });
    expect(fromNicApiRow({ machine: 1, vnet: 2, enabled: 1, macaddress: "52:54:00:AB:CD:EF" })).toEqual({
      machine: "1",
      vnet: "2",
      enabled: true,
      macaddress: "52:54:00:ab:cd:ef",
    });
  });
});

describe("Device", () => {
  const group = "9a8b7c6d-5e4f-4321-8fed-cba987654321";
  test("settingsArgs defaults to {} (plain passthrough)", () => {
    expect(deviceInputsSchema.parse({ machine: 5, resourceGroup: group })).toEqual({
      machine: "5",
      resourceGroup: group,
      settingsArgs: {},
    });
  });
  test("the resource group is a UUID", () => {
    expect(fieldsOf({ machine: 5, resourceGroup: "nvidia-a100" }, deviceInputsSchema)).toEqual(["resourceGroup"]);
  });
  test("API body", () => {
    expect(toDeviceApiBody(deviceInputsSchema.parse({ machine: 5, resourceGroup: group, settingsArgs: { model: "crb" } }))).toEqual({
      machine: "5",
      resource_group: group,
      settings_args: { model: "crb" },
    });
  });
});

describe("Vnet", () => {
  const net = {
    name: "lan",
    network: "10.0.0.0/24",
    dhcpEnabled: true,
    dhcpStart: "10.0.0.10",
    dhcpStop: "10.0.0.99",
    gateway: "10.0.0.1",
  };
  test("a consistent network is accepted", () => expect(problems(vnetInputsSchema, net)).toEqual([]));
  test("the network is a CIDR block", () => {
    expect(fieldsOf({ name: "lan", network: "10.0.0.0" }, vnetInputsSchema)).toEqual(["network"]);
    expect(fieldsOf({ name: "lan", network: "10.0.0.0/33" }, vnetInputsSchema)).toEqual(["network"]);
  });
  test("the gateway and the DHCP pool lie inside the network", () => {
    expect(problems(vnetInputsSchema, { ...net, gateway: "10.0.1.1" })).toEqual(["gateway: 10.0.1.1 is outside the network 10.0.0.0/24"]);
    expect(fieldsOf({ ...net, dhcpStart: "9.255.255.1" }, vnetInputsSchema)).toEqual(["dhcpStart"]);
    expect(fieldsOf({ ...net, dhcpStop: "192.168.0.1" }, vnetInputsSchema)).toEqual(["dhcpStop"]);
  });
  test("the gateway may be empty", () => expect(problems(vnetInputsSchema, { ...net, gateway: "" })).toEqual([]));
  test("the DHCP pool does not end before it starts", () => {
    expect(problems(vnetInputsSchema, { ...net, dhcpStart: "10.0.0.99", dhcpStop: "10.0.0.10" })).toEqual([
      "dhcpStop: the DHCP range ends (10.0.0.10) before it starts (10.0.0.99)",
    ]);
  });
  test("DHCP needs its pool, and a pool needs the network", () => {
    expect(fieldsOf({ name: "lan", network: "10.0.0.0/24", dhcpEnabled: true, dhcpStart: "10.0.0.10" }, vnetInputsSchema)).toEqual([
      "dhcpStop",
    ]);
    expect(fieldsOf({ name: "lan", dhcpStart: "10.0.0.10", dhcpStop: "10.0.0.20" }, vnetInputsSchema)).toEqual(["network"]);
  });
  test("MTU bounds and enumerations name their fields", () => {
    expect(fieldsOf({ name: "lan", mtu: 100, type: "wan", layer2Type: "gre" }, vnetInputsSchema).sort()).toEqual([
      "layer2Type",
      "mtu",
      "type",
    ]);
  });
  test("a row reads back with JSON booleans and numbers", () => {
    expect(fromVnetApiRow({ name: "lan", dhcp_enabled: "true", mtu: "1500", advanced_options: { dnsmasq: ["a"] } })).toEqual({
      name: "lan",
      dhcpEnabled: true,
      mtu: 1500,
      advancedOptions: { dnsmasq: ["a"] },
    });
  });
});

describe("VmSnapshot", () => {
  test("needs the VM key and a name; the key may be a number", () => {
    expect(fieldsOf({}, vmSnapshotInputsSchema).sort()).toEqual(["name", "vm"]);
    expect(vmSnapshotInputsSchema.parse({ vm: 7, name: "s" })).toEqual({ vm: "7", name: "s" });
  });
});

describe("action params", () => {
  test("clone params: string booleans and a string cluster key, without the source VM", () => {
    const { cloneFrom } = virtualMachineInputsSchema.parse({
      name: "web",
      cloneFrom: { vm: 7, quiesce: true, preserveMacs: false, preserveDeviceUuids: true, cluster: 2, description: "d" },
    });
    expect(toCloneParams(cloneFrom!)).toEqual({
      description: "d",
      quiesce: "true",
      preserve_macs: "false",
      preserve_device_uuids: "true",
      cluster: "2",
    });
  });
  test("snapshot params: name, description and quiesce as a string boolean", () => {
    expect(
      toVmSnapshotApiParams(vmSnapshotInputsSchema.parse({ vm: 7, name: "s", description: "d", quiesce: true, restoreTrigger: "1" })),
    ).toEqual({
      name: "s",
      description: "d",
      quiesce: "true",
    });
  });
});
