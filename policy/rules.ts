/**
 * The rules of the vplatform policy pack, as plain functions of resources and
 * configuration (policy/pack.ts hands them to @pulumi/policy). Each rule's
 * settings come from the pack's config (`--policy-pack-config file.json`:
 * `{"<rule>": {"enforcementLevel": "advisory", "<setting>": ...}}`), with the
 * defaults below. Resources are recognized by their short type whichever door
 * declared them: `pulumi-nodejs:dynamic/vplatform:Drive` (SDK) or
 * `vplatform:index:Drive` (the resource plugin). A rule names a token of the
 * resource registry and reads that resource's inputs by their generated types:
 * a token or an input the provider does not have does not compile
 * (policy/rules.typecheck.ts). The imports are types only: the pack loads no
 * provider code.
 */
import type { ResourceToken } from "../provider/resources";
import type { ValuesByToken } from "../sdk/schemaTypes.generated";

export type Level = "advisory" | "mandatory" | "disabled";

/** A resource as a policy sees it: type token, URN, its inputs, and (stack rules) the types each input came from. */
export interface PolicyResource<P extends object = Record<string, unknown>> {
  type: string;
  urn: string;
  props: P;
  /** Per input, the types of the program's resources whose outputs it was given. */
  inputSources?: Record<string, string[]>;
}

/**
 * A resource of the registry as the engine hands it to a policy: its inputs as
 * the provider's check answered them (validated, defaults filled in).
 */
export type Declared<T extends ResourceToken> = PolicyResource<ValuesByToken[T]>;

interface RuleBase<T extends ResourceToken, C> {
  name: string;
  description: string;
  enforcementLevel: Level;
  /** The resource (registry token) the rule judges. */
  appliesTo: T;
  /** JSON Schema properties of the rule's settings, with their defaults. */
  settings: { [K in keyof C]: { type: "string" | "number" | "array"; default: C[K]; description: string; items?: { type: string } } };
}

/** Judges each resource of its type alone; `nowMs` is the time, for rules about dates. */
export interface ResourceRule<T extends ResourceToken, C> extends RuleBase<T, C> {
  check(resource: Declared<T>, config: C, nowMs?: number): string[];
}

/** Judges the resources of its type together, with the types each of their inputs came from. */
export interface StackRule<T extends ResourceToken, C> extends RuleBase<T, C> {
  checkStack(resources: Declared<T>[], config: C): { urn: string; message: string }[];
}

const GIB = 2 ** 30;
const DAY_MS = 86_400_000;

/** `vplatform:index:Drive`, `pulumi-nodejs:dynamic/vplatform:Drive` → `Drive`; other packages' types → undefined. */
export function vplatformType(type: string): string | undefined {
  const match = /^(?:vplatform:index|pulumi-nodejs:dynamic\/vplatform):(\w+)$/.exec(type);
  return match?.[1];
}

/** The stack of a URN (`urn:pulumi:<stack>::<project>::...`). */
export const stackOfUrn = (urn: string): string => urn.split("::")[0].split(":").pop() ?? "";

/** `prod*` → matches prod, prod-eu, production. */
const globMatches = (pattern: string, text: string) =>
  new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, "\\$&")
      .replace(/\*/g, ".*")
      .replace(/\?/g, ".")}$`,
  ).test(text);

export const prodVmsRefusePowerCycle: ResourceRule<"VirtualMachine", { stacks: string[] }> = {
  name: "prod-vms-refuse-power-cycle",
  description: "VMs of production stacks set `powerCyclePolicy: refuse`, so no change restarts them unannounced",
  enforcementLevel: "mandatory",
  settings: {
    stacks: {
      type: "array",
      items: { type: "string" },
      default: ["prod*"],
      description: "Stack name patterns (* any text) that are production",
    },
  },
  appliesTo: "VirtualMachine",
  check: ({ urn, props }, { stacks }) => {
    const stack = stackOfUrn(urn);
    if (!stacks.some((p) => globMatches(p, stack)) || props.powerCyclePolicy === "refuse") return [];
    return [`stack '${stack}' is production (${stacks.join(", ")}): set powerCyclePolicy: refuse on VM '${props.name}'`];
  },
};

export const vmSizeLimits: ResourceRule<"VirtualMachine", { maxRamMB: number; maxCpuCores: number }> = {
  name: "vm-size-limits",
  description: "VM `ram` and `cpuCores` within the team's limits",
  enforcementLevel: "mandatory",
  settings: {
    maxRamMB: { type: "number", default: 65536, description: "Largest ram, in MB" },
    maxCpuCores: { type: "number", default: 16, description: "Most cpuCores" },
  },
  appliesTo: "VirtualMachine",
  check: ({ props: { name, ram, cpuCores } }, { maxRamMB, maxCpuCores }) => [
    ...(ram !== undefined && ram > maxRamMB ? [`VM '${name}': ram ${ram} MB is above the limit of ${maxRamMB} MB`] : []),
    ...(cpuCores !== undefined && cpuCores > maxCpuCores
      ? [`VM '${name}': cpuCores ${cpuCores} is above the limit of ${maxCpuCores}`]
      : []),
  ],
};

export const driveLimits: ResourceRule<"Drive", { maxSizeGiB: number; allowedTiers: number[] }> = {
  name: "drive-limits",
  description: "Drives within a size cap (`disksize`) and on allowed storage tiers (`preferredTier`)",
  enforcementLevel: "mandatory",
  settings: {
    maxSizeGiB: { type: "number", default: 2048, description: "Largest disksize, in GiB" },
    allowedTiers: {
      type: "array",
      items: { type: "number" },
      default: [1, 2, 3, 4, 5],
      description: "Storage tiers (preferredTier) drives may use",
    },
  },
  appliesTo: "Drive",
  check: ({ props: { name, disksize, preferredTier } }, { maxSizeGiB, allowedTiers }) => {
    const drive = `drive '${name ?? ""}'`;
    return [
      ...(disksize !== undefined && disksize > maxSizeGiB * GIB
        ? [`${drive}: disksize ${disksize / GIB} GiB is above the cap of ${maxSizeGiB} GiB`]
        : []),
      ...(preferredTier !== undefined && !allowedTiers.includes(preferredTier)
        ? [`${drive}: preferredTier ${preferredTier} is not an allowed tier (${allowedTiers.join(", ")})`]
        : []),
    ];
  },
};

/** A NIC's vnet is given by a Vnet the stack declares (its `id`), or is one of the keys the team lists. */
export const nicsOnDeclaredVnets: StackRule<"Nic", { allowedVnetKeys: string[] }> = {
  name: "nics-on-declared-vnets",
  description: "Every NIC's `vnet` is a vnet the stack declares (or one the team allows by key)",
  enforcementLevel: "mandatory",
  settings: {
    allowedVnetKeys: { type: "array", items: { type: "string" }, default: [], description: "Keys of existing vnets NICs may use" },
  },
  appliesTo: "Nic",
  checkStack: (nics, { allowedVnetKeys }) => {
    const fromDeclaredVnet = (r: Declared<"Nic">) => (r.inputSources?.vnet ?? []).some((t) => vplatformType(t) === "Vnet");
    return nics
      .filter((r) => !fromDeclaredVnet(r) && !allowedVnetKeys.includes(r.props.vnet))
      .map((r) => ({
        urn: r.urn,
        message: `NIC '${r.urn.split("::").pop()}': vnet ${r.props.vnet} is not declared by this stack: declare it, or list its key in allowedVnetKeys`,
      }));
  },
};

/** A lab copy's resource: a child of `vplatform:index:Lab` (its URN names the parent's type). */
const ofALab = (urn: string) => urn.split("::")[2]?.split("$").includes("vplatform:index:Lab") ?? false;

export const apiKeysExpireAndAreFenced: ResourceRule<"ApiKey", { maxDays: number }> = {
  name: "api-keys-expire-and-are-fenced",
  description:
    "API keys set `expires` to a date (within `maxDays` days when set) and list the addresses that may use them (`ipAllowList`); a lab copy's key, used from the student's own machine, needs no list",
  enforcementLevel: "mandatory",
  settings: {
    maxDays: { type: "number", default: 0, description: "Longest lifetime of an API key, in days (0: any date, as long as it expires)" },
  },
  appliesTo: "ApiKey",
  check: ({ urn, props: { name, expires, ipAllowList } }, { maxDays }, nowMs = Date.now()) => {
    const key = `API key '${name}'`;
    const at = Date.parse(expires);
    const within = maxDays > 0 ? ` within ${maxDays} days` : "";
    return [
      ...(Number.isNaN(at) ? [`${key}: expires is ${expires}: set it to a date${within}`] : []),
      ...(maxDays > 0 && at - nowMs > maxDays * DAY_MS
        ? [`${key}: expires ${expires} is more than ${maxDays} days away: rotate keys at least every ${maxDays} days`]
        : []),
      // An empty (or all disabled) allow list lets any address in.
      ...(ofALab(urn) || ipAllowList.some((entry) => entry.enabled) ? [] : [`${key}: list the addresses that may use it in ipAllowList`]),
    ];
  },
};

export const webhooksOverHttps: ResourceRule<"Webhook", Record<string, never>> = {
  name: "webhooks-over-https",
  description: "Webhooks call HTTPS URLs only (`url`), with `allowInsecure` never set",
  enforcementLevel: "mandatory",
  settings: {},
  appliesTo: "Webhook",
  check: ({ props: { name, url, allowInsecure } }) => [
    ...(/^https:\/\//i.test(url) ? [] : [`webhook '${name}': url ${url} is not HTTPS`]),
    ...(allowInsecure ? [`webhook '${name}': allowInsecure is forbidden`] : []),
  ],
};

export const resourceRules = [prodVmsRefusePowerCycle, vmSizeLimits, driveLimits, apiKeysExpireAndAreFenced, webhooksOverHttps];
export const stackRules = [nicsOnDeclaredVnets];
