// Device: defaults and the spec's representation, by hand
// (fieldRules.test.ts covers each field's bounds; spec.test.ts the spec's tables).
import { deviceInputsSchema, deviceShape, type DeviceInputs } from "./schema";
import { mappingOf } from "../../schemas/fieldCodec";

const { toApiBody: toDeviceApiBody, fromApiRow: fromDeviceApiRow } = mappingOf<DeviceInputs>(deviceShape);

const GROUP = "9a8b7c6d-5e4f-4321-8fed-cba987654321";

describe("plain passthrough: settings_args is an empty object unless declared (the spec's machine_devices)", () => {
  test("the default is {} and it is sent", () => {
    const inputs = deviceInputsSchema.parse({ machine: 5, resourceGroup: GROUP });
    expect(inputs).toEqual({ machine: "5", resourceGroup: GROUP, settingsArgs: {} });
    expect(toDeviceApiBody(inputs)).toEqual({ machine: "5", resource_group: GROUP, settings_args: {} });
  });
  test("declared settings go out as the object they are", () => {
    const settingsArgs = { profile: "a100-1-5c", count: 2, nested: { on: true } };
    expect(toDeviceApiBody(deviceInputsSchema.parse({ machine: 5, resourceGroup: GROUP, settingsArgs }))).toMatchObject({
      settings_args: settingsArgs,
    });
  });
});

describe("the resource group is a UUID, refused by name otherwise", () => {
  test.each(["nvidia-a100", "", "9a8b7c6d5e4f43218fedcba987654321"])("%j", (resourceGroup) => {
    const r = deviceInputsSchema.safeParse({ machine: 5, resourceGroup });
    expect(r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`)).toEqual([
      "resourceGroup: must be a UUID like 9a8b7c6d-5e4f-4321-8fed-cba987654321",
    ]);
  });
});

describe("a device row reads back as the declaration (no perpetual diff)", () => {
  const declared = deviceInputsSchema.parse({
    machine: 5,
    resourceGroup: GROUP,
    settingsArgs: { a: [1, "b"] },
    name: "gpu0",
    type: "node_pci_devices",
    enabled: true,
    optional: false,
  });
  test.each([
    ["numbers and JSON booleans", { machine: 5, enabled: true, optional: false }],
    ["strings", { machine: "5", enabled: "true", optional: "false" }],
    ["1/0 booleans", { machine: 5, enabled: 1, optional: 0 }],
  ])("%s", (_forms, forms) => {
    const row = {
      $key: 8,
      resource_group: GROUP,
      settings_args: { a: [1, "b"] },
      name: "gpu0",
      type: "node_pci_devices",
      uuid: "x",
      ...forms,
    };
    expect(fromDeviceApiRow(row, declared)).toEqual(declared);
  });
});
