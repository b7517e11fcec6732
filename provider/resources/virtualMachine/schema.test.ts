// VirtualMachine: the cross-field rules and the spec's representation, by hand
// (fieldRules.test.ts covers each field's bounds; spec.test.ts the spec's tables).
import { problems } from "../../../test/schemaProblems";
import { fieldMeta } from "../../schemas/common";
import { toCloneParams, virtualMachineRows, virtualMachineInputsSchema, virtualMachineShape } from "./schema";

const vm = (input: Record<string, unknown>) => problems(virtualMachineInputsSchema, { name: "web", ...input });

describe("secure boot needs UEFI", () => {
  test.each([
    [true, true, []],
    [true, false, ["secureBoot: secure boot needs uefi: true"]],
    [true, undefined, ["secureBoot: secure boot needs uefi: true"]],
    [false, undefined, []],
    [false, false, []],
    [undefined, false, []],
    [undefined, true, []],
  ])("secureBoot %p with uefi %p → %j", (secureBoot, uefi, expected) => expect(vm({ secureBoot, uefi })).toEqual(expected));
  test("is reported beside the other problems of the declaration", () => {
    expect(vm({ secureBoot: true, ram: 256 })).toEqual(["ram: RAM must be at least 512 MB", "secureBoot: secure boot needs uefi: true"]);
  });
  test("is reported even when another field has an invalid enumeration value", () => {
    expect(vm({ secureBoot: true, console: "rdp" }).map((p) => p.split(":")[0])).toEqual(["console", "secureBoot"]);
  });
});

describe("cloud-init file names are unique", () => {
  const files = (...names: string[]) => ({ cloudinitFiles: names.map((name) => ({ name, contents: "" })) });
  test.each([
    [["/user-data", "/meta-data"], []],
    [["/user-data", "/User-data"], []],
    [["/user-data", "/user-data"], ["cloudinitFiles.1.name: cloud-init file '/user-data' is declared twice"]],
    [
      ["/a", "/b", "/a", "/a"],
      ["cloudinitFiles.2.name: cloud-init file '/a' is declared twice", "cloudinitFiles.3.name: cloud-init file '/a' is declared twice"],
    ],
  ])("%j → %j", (names, expected) => expect(vm(files(...names))).toEqual(expected));
  test("a file's contents are at most 65536 characters; the refusal names the item", () => {
    expect(vm({ cloudinitFiles: [{ name: "/u", contents: "x".repeat(65536) }] })).toEqual([]);
    expect(
      vm({
        cloudinitFiles: [
          { name: "/u", contents: "" },
          { name: "/v", contents: "x".repeat(65537) },
        ],
      }).map((p) => p.split(":")[0]),
    ).toEqual(["cloudinitFiles.1.contents"]);
  });
});

describe("machine types: q35 ≡ pc-q35-<version> and pc ≡ pc-i440fx-<version>; two versions must match", () => {
  test.each([
    ["q35", "pc-q35-10.0", "q35"],
    ["q35", "q35", "q35"],
    ["pc", "pc-i440fx-9.2", "pc"],
    ["pc-q35-10.0", "pc-q35-10.0", "pc-q35-10.0"],
    ["pc-q35-10.0", "q35", "pc-q35-10.0"],
    ["pc-q35-9.0", "pc-q35-10.0", "pc-q35-10.0"], // another version: a real change
    ["q35", "pc-i440fx-9.2", "pc-i440fx-9.2"], // another family: a real change
    ["pc", "q35", "q35"],
    ["pc", "pc-q35-10.0", "pc-q35-10.0"],
  ])("declared %s, reported %s → reads back %s", (declared, reported, readBack) => {
    expect(virtualMachineRows.fromApiRow({ machine_type: reported }, { machineType: declared })).toEqual({ machineType: readBack });
  });
  test("without a declaration the reported type is kept as is", () => {
    expect(virtualMachineRows.fromApiRow({ machine_type: "pc-q35-10.0" })).toEqual({ machineType: "pc-q35-10.0" });
  });
});

describe("the create body is the spec's POST /v4/vms representation", () => {
  test("string booleans for VM settings, JSON booleans for enabled and allow_hotplug, integers for sizes", () => {
    const inputs = virtualMachineInputsSchema.parse({
      name: "web",
      description: "d",
      ram: 2048,
      cpuCores: 2,
      guestAgent: true,
      consolePassHash: "",
      video: "virtio",
      rtcBase: "utc",
      uefi: true,
      secureBoot: true,
      machineType: "q35",
      cpuType: "host",
      osFamily: "linux",
      bootOrder: "cd",
      note: "n",
      allowHotplug: true,
      cloudinitDatasource: "nocloud",
      nestedVirtualization: false,
      disableHypervisor: false,
      showAdvanced: true,
      enabled: false,
      console: "spice",
      powerState: "running",
      powerCyclePolicy: "refuse",
      timeouts: { create: 60 },
      adopt: false,
    });
    expect(virtualMachineRows.toApiBody(inputs)).toEqual({
      name: "web",
      description: "d",
      ram: 2048,
      cpu_cores: 2,
      guest_agent: "true",
      console_pass_hash: "",
      video: "virtio",
      rtc_base: "utc",
      uefi: "true",
      secure_boot: "true",
      machine_type: "q35",
      cpu_type: "host",
      os_family: "linux",
      boot_order: "cd",
      note: "n",
      allow_hotplug: true,
      cloudinit_datasource: "nocloud",
      nested_virtualization: "false",
      disable_hypervisor: "false",
      show_advanced: "true",
      enabled: false,
      console: "spice",
    });
  });
  test("the provider's own inputs never reach the body", () => {
    expect(
      virtualMachineRows.toApiBody(
        virtualMachineInputsSchema.parse({
          name: "web",
          powerState: "stopped",
          powerCyclePolicy: "refuse",
          adopt: true,
          timeouts: { create: 5 },
        }),
      ),
    ).toEqual({ name: "web" });
  });
  test("the update body leaves the create-only cluster out", () => {
    expect(fieldMeta(virtualMachineShape.cluster)?.createOnly).toBe(true);
    expect(virtualMachineRows.toApiBody({ name: "web", cluster: "1", ram: 1024 }, "update")).toEqual({ name: "web", ram: 1024 });
  });
});

describe("a VM row reads back as the declaration, whatever form the API answers in (no perpetual diff)", () => {
  const declared = virtualMachineInputsSchema.parse({
    name: "web",
    description: "",
    cluster: "1",
    enabled: true,
    machineType: "q35",
    allowHotplug: false,
    guestAgent: true,
    cpuCores: 4,
    cpuType: "host",
    ram: 4096,
    console: "vnc",
    video: "std",
    sound: "none",
    osFamily: "linux",
    rtcBase: "localtime",
    bootOrder: "cdn",
    bootDelay: 0,
    onPowerLoss: "last_state",
    consolePassHash: "",
    consolePassEnabled: false,
    usbTablet: true,
    usbLegacy: false,
    serialPort: false,
    uefi: true,
    secureBoot: false,
    nestedVirtualization: true,
    disableHypervisor: false,
    showAdvanced: false,
    cloudinitDatasource: "none",
    migrationMethod: "live",
    powerCycleTimeout: 300,
    allowExport: true,
    note: "",
  });
  const { powerCyclePolicy: _control, ...mappedInputs } = declared;
  test.each([
    [
      "JSON booleans, numbers, the versioned machine type",
      {
        machine_type: "pc-q35-10.0",
        cluster: 1,
        enabled: true,
        allow_hotplug: false,
        guest_agent: true,
        uefi: true,
        secure_boot: false,
        nested_virtualization: true,
        disable_hypervisor: false,
        show_advanced: false,
        usb_tablet: true,
        usb_legacy: false,
        serial_port: false,
        console_pass_enabled: false,
        allow_export: true,
        cpu_cores: 4,
        ram: 4096,
        boot_delay: 0,
        power_cycle_timeout: 300,
      },
    ],
    [
      "string booleans and numeric strings",
      {
        machine_type: "q35",
        cluster: "1",
        enabled: "true",
        allow_hotplug: "false",
        guest_agent: "true",
        uefi: "true",
        secure_boot: "false",
        nested_virtualization: "true",
        disable_hypervisor: "false",
        show_advanced: "false",
        usb_tablet: "true",
        usb_legacy: "false",
        serial_port: "false",
        console_pass_enabled: "false",
        allow_export: "true",
        cpu_cores: "4",
        ram: "4096",
        boot_delay: "0",
        power_cycle_timeout: "300",
      },
    ],
    [
      "1/0 booleans",
      {
        machine_type: "pc-q35-9.2",
        cluster: 1,
        enabled: 1,
        allow_hotplug: 0,
        guest_agent: 1,
        uefi: 1,
        secure_boot: 0,
        nested_virtualization: 1,
        disable_hypervisor: 0,
        show_advanced: 0,
        usb_tablet: 1,
        usb_legacy: 0,
        serial_port: 0,
        console_pass_enabled: 0,
        allow_export: 1,
        cpu_cores: 4,
        ram: 4096,
        boot_delay: 0,
        power_cycle_timeout: 300,
      },
    ],
  ])("%s", (_forms, forms) => {
    const row = {
      $key: 3,
      machine: 54,
      name: "web",
      description: "",
      cpu_type: "host",
      console: "vnc",
      video: "std",
      sound: "none",
      os_family: "linux",
      rtc_base: "localtime",
      boot_order: "cdn",
      on_power_loss: "last_state",
      console_pass_hash: "",
      cloudinit_datasource: "none",
      migration_method: "live",
      note: "",
      need_restart: false,
      ...forms,
    };
    expect(virtualMachineRows.fromApiRow(row, declared)).toEqual(mappedInputs);
  });
});

describe("clone params are the spec's vm_actions clone params", () => {
  test.each([
    [{ vm: 7 }, {}],
    [
      { vm: "7", quiesce: true, preserveMacs: true, preserveDeviceUuids: true },
      { quiesce: "true", preserve_macs: "true", preserve_device_uuids: "true" },
    ],
    [
      { vm: 7, quiesce: false, preserveMacs: false, preserveDeviceUuids: false },
      { quiesce: "false", preserve_macs: "false", preserve_device_uuids: "false" },
    ],
    [
      { vm: 7, cluster: 2, description: "from golden" },
      { cluster: "2", description: "from golden" },
    ],
  ])("%j → %j (string booleans, the cluster as a string key, never the source VM)", (cloneFrom, params) => {
    expect(toCloneParams(virtualMachineInputsSchema.parse({ name: "web", cloneFrom }).cloneFrom!)).toEqual(params);
  });
});

describe("a clone has one source: a VM or a snapshot", () => {
  test.each([
    [{ vm: "7" }, []],
    [{ snapshot: "12" }, []],
    [{ snapshot: 12, preserveMacs: true }, []],
    [{}, ["cloneFrom.vm: give the source to clone: vm (a VM key) or snapshot (a snapshot's key)"]],
    [{ vm: "7", snapshot: "12" }, ["cloneFrom.snapshot: give vm or snapshot, not both: a clone has one source"]],
    [{ snapshot: "start" }, ["cloneFrom.snapshot: must be a row key (digits)"]],
  ])("cloneFrom %j → %j", (cloneFrom, expected) => {
    expect(vm({ cloneFrom })).toEqual(expected);
  });

  test("the snapshot is the action's target, not a param of the clone", () => {
    expect(
      toCloneParams(virtualMachineInputsSchema.parse({ name: "web", cloneFrom: { snapshot: "12", quiesce: true } }).cloneFrom!),
    ).toEqual({
      quiesce: "true",
    });
  });
});
