// Vnet: the network rules (gateway and DHCP pool inside the network, the pool in order)
// and the spec's representation, by hand (fieldRules.test.ts covers each field's bounds).
import { problems } from "../../../test/schemaProblems";
import { vnetInputsSchema, vnetShape, type VnetInputs } from "./schema";
import { mappingOf } from "../../schemas/fieldCodec";

const { toApiBody: toVnetApiBody, fromApiRow: fromVnetApiRow } = mappingOf<VnetInputs>(vnetShape);

const vnet = (input: Record<string, unknown>) => problems(vnetInputsSchema, { name: "lan", ...input });

describe("the DHCP pool lies inside the network and does not end before it starts", () => {
  test.each([
    ["10.0.0.0/24", "10.0.0.100", "10.0.0.200", []],
    ["10.0.0.0/24", "10.0.0.100", "10.0.0.100", []],
    ["10.0.0.0/24", "10.0.0.0", "10.0.0.255", []],
    ["10.0.0.0/24", "10.0.0.200", "10.0.0.100", ["dhcpStop: the DHCP range ends (10.0.0.100) before it starts (10.0.0.200)"]],
    ["10.0.0.0/24", "10.0.0.101", "10.0.0.100", ["dhcpStop: the DHCP range ends (10.0.0.100) before it starts (10.0.0.101)"]],
    ["10.0.0.0/24", "9.255.255.255", "10.0.0.10", ["dhcpStart: 9.255.255.255 is outside the network 10.0.0.0/24"]],
    ["10.0.0.0/24", "10.0.0.10", "10.0.1.0", ["dhcpStop: 10.0.1.0 is outside the network 10.0.0.0/24"]],
    ["10.0.0.0/25", "10.0.0.10", "10.0.0.128", ["dhcpStop: 10.0.0.128 is outside the network 10.0.0.0/25"]],
    ["10.0.0.0/25", "10.0.0.10", "10.0.0.127", []],
    // addresses with the top bit set (unsigned 32-bit arithmetic)
    ["192.168.1.0/24", "192.168.1.10", "192.168.1.250", []],
    ["192.168.1.0/24", "192.168.0.10", "192.168.1.250", ["dhcpStart: 192.168.0.10 is outside the network 192.168.1.0/24"]],
    ["255.255.255.0/24", "255.255.255.1", "255.255.255.255", []],
    ["192.168.1.0/24", "192.168.1.250", "192.168.1.10", ["dhcpStop: the DHCP range ends (192.168.1.10) before it starts (192.168.1.250)"]],
    // the extremes of the prefix length
    ["10.0.0.5/32", "10.0.0.5", "10.0.0.5", []],
    ["10.0.0.5/32", "10.0.0.5", "10.0.0.6", ["dhcpStop: 10.0.0.6 is outside the network 10.0.0.5/32"]],
    ["0.0.0.0/0", "1.2.3.4", "200.0.0.1", []],
  ])("network %s, pool %s – %s → %j", (network, dhcpStart, dhcpStop, expected) => {
    expect(vnet({ network, dhcpEnabled: true, dhcpStart, dhcpStop })).toEqual(expected);
  });
  test("both ends outside and reversed: each problem at its own field", () => {
    expect(vnet({ network: "10.0.0.0/24", dhcpStart: "10.0.1.20", dhcpStop: "10.0.1.10" })).toEqual([
      "dhcpStart: 10.0.1.20 is outside the network 10.0.0.0/24",
      "dhcpStop: 10.0.1.10 is outside the network 10.0.0.0/24",
      "dhcpStop: the DHCP range ends (10.0.1.10) before it starts (10.0.1.20)",
    ]);
  });
});

describe("DHCP needs its pool, and a pool needs the network", () => {
  test("reported even when another field has an invalid enumeration value", () => {
    expect(vnet({ network: "10.0.0.0/24", dhcpEnabled: true, type: "wan" }).map((p) => p.split(":")[0])).toEqual(["type", "dhcpStart"]);
  });
  test.each([
    [{ network: "10.0.0.0/24", dhcpEnabled: true }, ["dhcpStart: dhcpEnabled needs dhcpStart and dhcpStop"]],
    [{ network: "10.0.0.0/24", dhcpEnabled: true, dhcpStop: "10.0.0.9" }, ["dhcpStart: dhcpEnabled needs dhcpStart and dhcpStop"]],
    [{ network: "10.0.0.0/24", dhcpEnabled: true, dhcpStart: "10.0.0.9" }, ["dhcpStop: dhcpEnabled needs dhcpStart and dhcpStop"]],
    [{ network: "10.0.0.0/24", dhcpEnabled: false }, []],
    [{ dhcpEnabled: false }, []],
    [{ dhcpStart: "10.0.0.10", dhcpStop: "10.0.0.20" }, ["network: a DHCP range needs the network (CIDR)"]],
    [{ dhcpStart: "10.0.0.10" }, ["network: a DHCP range needs the network (CIDR)"]],
    [{ network: "10.0.0.0/24", dhcpStart: "10.0.0.10", dhcpStop: "10.0.0.20" }, []],
  ])("%j → %j", (input, expected) => expect(vnet(input)).toEqual(expected));
});

describe("the gateway lies inside the network, or is empty (the spec: may be empty)", () => {
  test.each([
    ["10.0.0.0/24", "10.0.0.1", []],
    ["10.0.0.0/24", "10.0.0.254", []],
    ["10.0.0.0/24", "", []],
    ["10.0.0.0/24", "10.0.1.1", ["gateway: 10.0.1.1 is outside the network 10.0.0.0/24"]],
    ["172.16.0.0/12", "172.31.255.254", []],
    ["172.16.0.0/12", "172.32.0.1", ["gateway: 172.32.0.1 is outside the network 172.16.0.0/12"]],
    [undefined, "10.9.9.9", []], // no network declared: nothing to be inside of
  ])("network %s, gateway %j → %j", (network, gateway, expected) => expect(vnet({ network, gateway })).toEqual(expected));
});

describe("an invalid network is reported once, at the network", () => {
  test.each(["10.0.0.0", "10.0.0.0/33", "10.0.0.300/24", "lan"])("%s", (network) => {
    const found = vnet({ network, gateway: "10.0.0.1" });
    expect(found).toEqual([`network: a CIDR block like 10.0.0.0/24`]);
  });
});

describe("the API body and read-back are the spec's vnets representation", () => {
  const declared = vnetInputsSchema.parse({
    name: "lan",
    description: "",
    type: "internal",
    layer2Type: "vxlan",
    network: "10.0.0.0/24",
    gateway: "",
    dnslist: "10.0.0.1,1.1.1.1",
    mtu: 9000,
    dhcpEnabled: true,
    dhcpStart: "10.0.0.100",
    dhcpStop: "10.0.0.200",
    rateLimit: 0,
    rateLimitBurst: 10,
    rateLimitType: "mbytes/second",
    advancedOptions: { dnsmasq: ["dhcp-option=6,10.0.0.1"] },
  });
  test("dhcp_enabled a JSON boolean, mtu and rate limits integers, advanced_options an object holding dnsmasq strings", () => {
    expect(toVnetApiBody(declared)).toEqual({
      name: "lan",
      description: "",
      type: "internal",
      layer2_type: "vxlan",
      network: "10.0.0.0/24",
      gateway: "",
      dnslist: "10.0.0.1,1.1.1.1",
      mtu: 9000,
      dhcp_enabled: true,
      dhcp_start: "10.0.0.100",
      dhcp_stop: "10.0.0.200",
      rate_limit: 0,
      rate_limit_burst: 10,
      rate_limit_type: "mbytes/second",
      advanced_options: { dnsmasq: ["dhcp-option=6,10.0.0.1"] },
    });
  });
  test.each([
    ["numbers and JSON booleans", { mtu: 9000, dhcp_enabled: true, rate_limit: 0, rate_limit_burst: 10 }],
    ["strings (mtu is integer/string in the spec)", { mtu: "9000", dhcp_enabled: "true", rate_limit: "0", rate_limit_burst: "10" }],
    ["1 for true", { mtu: 9000, dhcp_enabled: 1, rate_limit: 0, rate_limit_burst: "10" }],
  ])("a row in %s reads back as the declaration", (_forms, forms) => {
    const row = { $key: 3, ...toVnetApiBody(declared), ...forms };
    expect(fromVnetApiRow(row, declared)).toEqual(declared);
  });
});
