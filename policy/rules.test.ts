import * as fs from "node:fs";
import * as path from "node:path";
import {
  apiKeysExpireAndAreFenced,
  dhcpInsideNetwork,
  driveLimits,
  nicsOnDeclaredVnets,
  prodVmsRefusePowerCycle,
  stackOfUrn,
  vmSizeLimits,
  vplatformType,
  webhooksOverHttps,
  type PolicyResource,
} from "./rules";

const urn = (stack: string, type: string, name: string) => `urn:pulumi:${stack}::team::${type}::${name}`;
const sdk = (short: string) => `pulumi-nodejs:dynamic/vplatform:${short}`;
const plugin = (short: string) => `vplatform:index:${short}`;
const resource = (short: string, props: Record<string, unknown>, stack = "dev", type = sdk(short)): PolicyResource => ({
  type,
  urn: urn(stack, type, String(props.name ?? short)),
  props,
});
const GIB = 2 ** 30;

describe("the pack recognizes vplatform resources whichever door declared them", () => {
  test("SDK (dynamic) and plugin type tokens give the short type; other packages' types none", () => {
    expect(vplatformType(sdk("Drive"))).toBe("Drive");
    expect(vplatformType(plugin("ApiKey"))).toBe("ApiKey");
    expect(vplatformType("aws:s3/bucket:Bucket")).toBeUndefined();
    expect(stackOfUrn(urn("prod-eu", sdk("Vnet"), "lab"))).toBe("prod-eu");
  });

  test("the pack's version is the package's (@pulumi/policy reads it from policy/package.json)", () => {
    const version = (file: string) => JSON.parse(fs.readFileSync(path.join(__dirname, file), "utf8")).version;
    expect(version("package.json")).toBe(version("../package.json"));
  });
});

describe("production VMs refuse power cycles", () => {
  const config = { stacks: ["prod*"] };
  test("a VM of a stack named like prod* without powerCyclePolicy: refuse is a violation naming the fix", () => {
    expect(prodVmsRefusePowerCycle.check(resource("VirtualMachine", { name: "web" }, "prod-eu"), config)).toEqual([
      "stack 'prod-eu' is production (prod*): set powerCyclePolicy: refuse on VM 'web'",
    ]);
  });
  test("refuse passes, and other stacks are not production", () => {
    expect(prodVmsRefusePowerCycle.check(resource("VirtualMachine", { name: "web", powerCyclePolicy: "refuse" }, "prod"), config)).toEqual(
      [],
    );
    expect(prodVmsRefusePowerCycle.check(resource("VirtualMachine", { name: "web" }, "staging"), config)).toEqual([]);
    expect(prodVmsRefusePowerCycle.check(resource("VirtualMachine", { name: "web" }, "live"), { stacks: ["live", "prod*"] })).toHaveLength(
      1,
    );
  });
});

describe("VM and drive limits", () => {
  test("RAM and cores above the configured limits are violations", () => {
    const vm = resource("VirtualMachine", { name: "big", ram: 131072, cpuCores: 32 });
    expect(vmSizeLimits.check(vm, { maxRamMB: 65536, maxCpuCores: 16 })).toEqual([
      "VM 'big': ram 131072 MB is above the limit of 65536 MB",
      "VM 'big': cpuCores 32 is above the limit of 16",
    ]);
    expect(vmSizeLimits.check(vm, { maxRamMB: 131072, maxCpuCores: 32 })).toEqual([]);
  });
  test("a drive above the size cap or on a tier not allowed is a violation; unknown sizes pass", () => {
    const config = { maxSizeGiB: 100, allowedTiers: [2, 3] };
    expect(driveLimits.check(resource("Drive", { name: "data", disksize: 200 * GIB, preferredTier: 1 }), config)).toEqual([
      "drive 'data': disksize 200 GiB is above the cap of 100 GiB",
      "drive 'data': preferredTier 1 is not an allowed tier (2, 3)",
    ]);
    expect(driveLimits.check(resource("Drive", { name: "data", disksize: 50 * GIB, preferredTier: 3 }), config)).toEqual([]);
    expect(driveLimits.check(resource("Drive", { name: "data" }), config)).toEqual([]);
  });
});

describe("networks", () => {
  test("a NIC whose vnet does not come from a Vnet of the stack is a violation unless its key is allowed", () => {
    const declared = {
      ...resource("Nic", { name: "a", vnet: "4" }),
      inputSources: { vnet: [sdk("Vnet")], machine: [sdk("VirtualMachine")] },
    };
    const lookedUp = { ...resource("Nic", { name: "b", vnet: "9" }), inputSources: { machine: [sdk("VirtualMachine")] } };
    expect(nicsOnDeclaredVnets.checkStack([declared, lookedUp], { allowedVnetKeys: [] })).toEqual([
      { urn: lookedUp.urn, message: "NIC 'b': vnet 9 is not declared by this stack: declare it, or list its key in allowedVnetKeys" },
    ]);
    expect(nicsOnDeclaredVnets.checkStack([declared, lookedUp], { allowedVnetKeys: ["9"] })).toEqual([]);
  });
  test("a DHCP range outside its network is a violation", () => {
    const vnet = (start: string, stop: string) =>
      resource("Vnet", { name: "lab", network: "10.0.0.0/24", dhcpStart: start, dhcpStop: stop });
    expect(dhcpInsideNetwork.check(vnet("10.0.0.100", "10.0.1.10"), {})).toEqual([
      "vnet 'lab': dhcpStop 10.0.1.10 is outside its network 10.0.0.0/24",
    ]);
    expect(dhcpInsideNetwork.check(vnet("10.0.0.100", "10.0.0.200"), {})).toEqual([]);
  });
});

// ApiKey and Webhook resources do not exist yet: the rules are written against their type tokens and inputs.
describe("API keys and webhooks (vplatform:index:ApiKey, vplatform:index:Webhook)", () => {
  const now = Date.parse("2026-11-26T12:00:00Z");
  const key = (props: Record<string, unknown>) => resource("ApiKey", { name: "ci", ...props }, "dev", plugin("ApiKey"));
  test("a key must expire within N days and carry an IP allow list", () => {
    expect(apiKeysExpireAndAreFenced.check(key({}), { maxDays: 90 }, now)).toEqual([
      "API key 'ci': set expiresAt (within 90 days)",
      "API key 'ci': set ipAllow (the addresses that may use it)",
    ]);
    expect(
      apiKeysExpireAndAreFenced.check(key({ expiresAt: "2027-06-01T00:00:00Z", ipAllow: ["10.0.0.0/8"] }), { maxDays: 90 }, now),
    ).toEqual(["API key 'ci': expiresAt is more than 90 days away: rotate keys at least every 90 days"]);
    expect(
      apiKeysExpireAndAreFenced.check(key({ expiresAt: "2026-12-20T00:00:00Z", ipAllow: ["10.0.0.0/8"] }), { maxDays: 90 }, now),
    ).toEqual([]);
  });
  test("a webhook must call HTTPS, and allowInsecure is forbidden", () => {
    const hook = (props: Record<string, unknown>) => resource("Webhook", { name: "alerts", ...props }, "dev", plugin("Webhook"));
    expect(webhooksOverHttps.check(hook({ url: "http://hooks.example/x", allowInsecure: true }), {})).toEqual([
      "webhook 'alerts': url http://hooks.example/x is not HTTPS",
      "webhook 'alerts': allowInsecure is forbidden",
    ]);
    expect(webhooksOverHttps.check(hook({ url: "https://hooks.example/x" }), {})).toEqual([]);
  });
});
