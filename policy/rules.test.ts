import * as fs from "node:fs";
import * as path from "node:path";
import { RESOURCES, type ResourceToken } from "../provider/resources";
import { checkInputs } from "../provider/resources/framework/checkInputs";
import type { InputsByToken, ValuesByToken } from "../sdk/schemaTypes.generated";
import { parse } from "yaml";
import { fencedBlocks } from "../scripts/markdownBlocks";
import {
  apiKeysExpireAndAreFenced,
  type Declared,
  driveLimits,
  nicsOnDeclaredVnets,
  prodVmsRefusePowerCycle,
  stackOfUrn,
  vmSizeLimits,
  vplatformType,
  webhooksOverHttps,
} from "./rules";

const urn = (stack: string, type: string, name: string) => `urn:pulumi:${stack}::team::${type}::${name}`;
const sdk = (token: string) => `pulumi-nodejs:dynamic/vplatform:${token}`;
const plugin = (token: string) => `vplatform:index:${token}`;

/**
 * A resource as the engine hands it to the pack: its declaration through the resource's own check (its zod
 * schema: defaults filled in, an input it does not have refused), so the rules see the provider's real inputs.
 */
function declared<T extends ResourceToken>(
  token: T,
  inputs: InputsByToken[T],
  { stack = "dev", logical = token.toLowerCase(), door = sdk } = {},
): Declared<T> {
  const checked = checkInputs(RESOURCES[token].inputs, { ...inputs });
  if (!checked.ok) throw new Error(`${token} ${JSON.stringify(inputs)}: ${JSON.stringify(checked.failures)}`);
  const type = door(token);
  return { type, urn: urn(stack, type, logical), props: checked.inputs as unknown as ValuesByToken[T] };
}
const GIB = 2 ** 30;
const MACHINE = "7";

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
  const vm = (stack: string, inputs: Partial<InputsByToken["VirtualMachine"]> = {}) =>
    declared("VirtualMachine", { name: "web", ...inputs }, { stack });
  test("a VM of a stack named like prod* without powerCyclePolicy: refuse is a violation naming the fix", () => {
    expect(prodVmsRefusePowerCycle.check(vm("prod-eu"), config)).toEqual([
      "stack 'prod-eu' is production (prod*): set powerCyclePolicy: refuse on VM 'web'",
    ]);
  });
  test("refuse passes, and other stacks are not production", () => {
    expect(prodVmsRefusePowerCycle.check(vm("prod", { powerCyclePolicy: "refuse" }), config)).toEqual([]);
    expect(prodVmsRefusePowerCycle.check(vm("staging"), config)).toEqual([]);
    expect(prodVmsRefusePowerCycle.check(vm("live"), { stacks: ["live", "prod*"] })).toHaveLength(1);
  });
});

describe("VM and drive limits", () => {
  test("RAM and cores above the configured limits are violations", () => {
    const vm = declared("VirtualMachine", { name: "big", ram: 131072, cpuCores: 32 });
    expect(vmSizeLimits.check(vm, { maxRamMB: 65536, maxCpuCores: 16 })).toEqual([
      "VM 'big': ram 131072 MB is above the limit of 65536 MB",
      "VM 'big': cpuCores 32 is above the limit of 16",
    ]);
    expect(vmSizeLimits.check(vm, { maxRamMB: 131072, maxCpuCores: 32 })).toEqual([]);
  });
  test("a drive above the size cap or on a tier not allowed is a violation; a drive without a disksize (a CD-ROM) passes", () => {
    const config = { maxSizeGiB: 100, allowedTiers: [2, 3] };
    const drive = (inputs: Partial<InputsByToken["Drive"]>) => declared("Drive", { machine: MACHINE, name: "data", ...inputs });
    expect(driveLimits.check(drive({ disksize: 200 * GIB, preferredTier: 1 }), config)).toEqual([
      "drive 'data': disksize 200 GiB is above the cap of 100 GiB",
      "drive 'data': preferredTier 1 is not an allowed tier (2, 3)",
    ]);
    expect(driveLimits.check(drive({ disksize: 50 * GIB, preferredTier: 3 }), config)).toEqual([]);
    expect(driveLimits.check(drive({ media: "cdrom", mediaSource: "12" }), config)).toEqual([]);
  });
});

describe("NICs are on vnets the stack declares", () => {
  test("a NIC whose vnet does not come from a Vnet of the stack is a violation unless its key is allowed", () => {
    const nic = (logical: string, vnet: string) => declared("Nic", { machine: MACHINE, vnet }, { logical });
    const onDeclared = { ...nic("a", "4"), inputSources: { vnet: [sdk("Vnet")], machine: [sdk("VirtualMachine")] } };
    const onLookedUp = { ...nic("b", "9"), inputSources: { machine: [sdk("VirtualMachine")] } };
    expect(nicsOnDeclaredVnets.checkStack([onDeclared, onLookedUp], { allowedVnetKeys: [] })).toEqual([
      { urn: onLookedUp.urn, message: "NIC 'b': vnet 9 is not declared by this stack: declare it, or list its key in allowedVnetKeys" },
    ]);
    expect(nicsOnDeclaredVnets.checkStack([onDeclared, onLookedUp], { allowedVnetKeys: ["9"] })).toEqual([]);
  });
});

describe("API keys expire and are fenced", () => {
  const now = Date.parse("2026-11-26T12:00:00Z");
  const config = { maxDays: 90 };
  const key = (inputs: Partial<InputsByToken["ApiKey"]>) => declared("ApiKey", { name: "ci", ...inputs }, { door: plugin });
  const office = [{ address: "10.0.0.0/8" }];
  test("a key that never expires (the default) and lets any address in (an empty allow list, the default) breaks both halves", () => {
    expect(apiKeysExpireAndAreFenced.check(key({}), config, now)).toEqual([
      "API key 'ci': expires is never: set it to a date within 90 days",
      "API key 'ci': list the addresses that may use it in ipAllowList",
    ]);
  });
  test("with maxDays, expires more than maxDays away is a violation, a date or a time within them passes", () => {
    expect(apiKeysExpireAndAreFenced.check(key({ expires: "2027-06-01T00:00:00Z", ipAllowList: office }), config, now)).toEqual([
      "API key 'ci': expires 2027-06-01T00:00:00Z is more than 90 days away: rotate keys at least every 90 days",
    ]);
    expect(apiKeysExpireAndAreFenced.check(key({ expires: "2026-12-20", ipAllowList: office }), config, now)).toEqual([]);
    expect(apiKeysExpireAndAreFenced.check(key({ expires: "2027-02-01T00:00:00+01:00", ipAllowList: office }), config, now)).toEqual([]);
  });
  test("by default (maxDays 0) any date passes, never does not", () => {
    const byDefault = { maxDays: apiKeysExpireAndAreFenced.settings.maxDays.default };
    expect(apiKeysExpireAndAreFenced.check(key({ expires: "2031-06-30", ipAllowList: office }), byDefault, now)).toEqual([]);
    expect(apiKeysExpireAndAreFenced.check(key({ ipAllowList: office }), byDefault, now)).toEqual([
      "API key 'ci': expires is never: set it to a date",
    ]);
  });
  test("an allow list whose entries are all disabled lets any address in: a violation", () => {
    const disabled = key({ expires: "2026-12-20", ipAllowList: [{ address: "10.0.0.0/8", enabled: false }] });
    expect(apiKeysExpireAndAreFenced.check(disabled, config, now)).toEqual([
      "API key 'ci': list the addresses that may use it in ipAllowList",
    ]);
  });
  test("a lab copy's key (a child of a Lab) needs no allow list, but still expires", () => {
    const urn = "urn:pulumi:spring::vplatform-env::vplatform:index:Lab$pulumi-nodejs:dynamic/vplatform:ApiKey::course-01-key";
    const student = { ...key({ expires: "2027-01-01" }), urn };
    expect(apiKeysExpireAndAreFenced.check(student, config, now)).toEqual([]);
    expect(apiKeysExpireAndAreFenced.check({ ...key({}), urn }, config, now)).toEqual([
      "API key 'ci': expires is never: set it to a date within 90 days",
    ]);
  });
});

describe("the guides' own keys pass the pack as shipped (its defaults)", () => {
  const guides = path.join(__dirname, "..", "docs", "guides");
  type Entry = { name?: string; expires?: string; ipAllowList?: { address: string }[] };
  /** Each API key an environment file of the guides declares: its own, and a lab's per copy (a child of the Lab). */
  const keys = fs
    .readdirSync(guides)
    .flatMap((f) => fencedBlocks(f, fs.readFileSync(path.join(guides, f), "utf8")))
    .filter((b) => b.lang === "yaml")
    .flatMap((b) => {
      const doc = parse(b.text) as { apiKeys?: Entry[]; labs?: { name: string; apiKey?: Entry; calendar?: { ends?: string } }[] };
      // What the rule reads of each (a file's key names its user by name; the resource takes its key).
      const judged = ({ name, expires, ipAllowList }: Entry) => ({
        name: name!,
        ...(expires ? { expires } : {}),
        ...(ipAllowList ? { ipAllowList } : {}),
      });
      const own = (doc.apiKeys ?? []).map((k) => ({ where: `${b.file}:${b.line}`, key: declared("ApiKey", judged(k)) }));
      const ofLabs = (doc.labs ?? [])
        .filter((l) => l.apiKey)
        .map((l) => {
          // A lab's copies' keys expire with its calendar's term, unless given their own date.
          const expires = String(l.apiKey?.expires ?? l.calendar?.ends ?? "never");
          const key = declared("ApiKey", { name: `${l.name}-01-key`, expires }, { logical: `${l.name}-01-key` });
          return {
            where: `${b.file}:${b.line}`,
            key: { ...key, urn: key.urn.replace("::pulumi-nodejs:", "::vplatform:index:Lab$pulumi-nodejs:") },
          };
        });
      return [...own, ...ofLabs];
    });
  const defaults = { maxDays: apiKeysExpireAndAreFenced.settings.maxDays.default };

  test("the keys guide's and the class guide's keys are found", () => {
    expect(keys.map((k) => k.where.split(":")[0]).sort()).toEqual(expect.arrayContaining(["class-labs.md", "keys-and-automation.md"]));
  });
  test.each(keys.map((k) => [k.where, k.key] as const))("%s", (_where, key) => {
    expect(apiKeysExpireAndAreFenced.check(key, defaults)).toEqual([]);
  });
});

describe("webhooks call HTTPS only", () => {
  const hook = (inputs: Partial<InputsByToken["Webhook"]>) =>
    declared("Webhook", { name: "alerts", url: "https://hooks.example/x", ...inputs }, { door: plugin });
  test("an http URL and allowInsecure are each a violation", () => {
    expect(webhooksOverHttps.check(hook({ url: "http://hooks.example/x", allowInsecure: true }), {})).toEqual([
      "webhook 'alerts': url http://hooks.example/x is not HTTPS",
      "webhook 'alerts': allowInsecure is forbidden",
    ]);
  });
  test("an https URL without allowInsecure (its default: false) passes", () => {
    expect(webhooksOverHttps.check(hook({}), {})).toEqual([]);
  });
});
