// Nic: defaults, MAC addresses and the spec's representation, by hand
// (fieldRules.test.ts covers each field's bounds; spec.test.ts the spec's tables).
import { nicInputsSchema, nicShape, type NicInputs } from "./schema";
import { mappingOf } from "../../schemas/fieldCodec";

const { toApiBody: toNicApiBody, fromApiRow: fromNicApiRow } = mappingOf<NicInputs>(nicShape);

describe("defaults", () => {
  test("a NIC is enabled unless declared otherwise, with a virtio interface", () => {
    expect(nicInputsSchema.parse({ machine: 1, vnet: 2 })).toEqual({ machine: "1", vnet: "2", interface: "virtio", enabled: true });
    expect(nicInputsSchema.parse({ machine: 1, vnet: 2, enabled: false }).enabled).toBe(false);
  });
});

describe("a MAC address is kept lowercase, so the platform's upper-case answer is no change", () => {
  test.each([
    ["52:54:00:AB:CD:EF", "52:54:00:AB:CD:EF"],
    ["52:54:00:ab:cd:ef", "52:54:00:AB:CD:EF"],
    ["52:54:00:Ab:cD:eF", "52:54:00:ab:cd:ef"],
    ["52:54:00:ab:cd:ef", " 52:54:00:ab:cd:ef "],
  ])("declared %s, reported %j", (mac, reported) => {
    const declared = nicInputsSchema.parse({ machine: 1, vnet: 2, macaddress: mac });
    expect(declared.macaddress).toBe("52:54:00:ab:cd:ef");
    expect(fromNicApiRow({ macaddress: reported }, declared)).toEqual({ macaddress: "52:54:00:ab:cd:ef" });
  });
});

describe("the API body is the spec's machine_nics representation", () => {
  test("enabled a JSON boolean, the MAC lowercase", () => {
    expect(
      toNicApiBody(
        nicInputsSchema.parse({
          machine: 1,
          vnet: 2,
          name: "eth0",
          interface: "e1000",
          enabled: false,
          macaddress: "52:54:00:AB:CD:EF",
          ipaddress: "10.0.0.5",
        }),
      ),
    ).toEqual({
      machine: "1",
      vnet: "2",
      name: "eth0",
      interface: "e1000",
      enabled: false,
      macaddress: "52:54:00:ab:cd:ef",
      ipaddress: "10.0.0.5",
    });
  });
  test("an update body can move the NIC to another vnet but leaves the machine out", () => {
    expect(toNicApiBody({ machine: "1", vnet: "3", enabled: true }, "update")).toEqual({ vnet: "3", enabled: true });
  });
});

describe("a NIC row reads back as the declaration, whatever form the API answers in (no perpetual diff)", () => {
  const declared = nicInputsSchema.parse({
    machine: 1,
    vnet: 2,
    name: "eth0",
    description: "",
    interface: "rtl8139",
    enabled: true,
    macaddress: "52:54:00:12:34:56",
    ipaddress: "10.0.0.5",
  });
  test.each([
    ["numbers and JSON booleans", { machine: 1, vnet: 2, enabled: true, macaddress: "52:54:00:12:34:56" }],
    ["strings", { machine: "1", vnet: "2", enabled: "true", macaddress: "52:54:00:12:34:56" }],
    ["1 and an upper-case MAC", { machine: 1, vnet: 2, enabled: 1, macaddress: "52:54:00:12:34:56".toUpperCase() }],
  ])("%s", (_forms, forms) => {
    expect(
      fromNicApiRow({ $key: 4, name: "eth0", description: "", interface: "rtl8139", ipaddress: "10.0.0.5", ...forms }, declared),
    ).toEqual(declared);
  });
});
