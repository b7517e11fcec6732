/**
 * The rules of the vplatform policy pack, as plain functions of resources and
 * configuration (policy/pack.ts hands them to @pulumi/policy). Each rule's
 * settings come from the pack's config (`--policy-pack-config file.json`:
 * `{"<rule>": {"enforcementLevel": "advisory", "<setting>": ...}}`), with the
 * defaults below. Resources are recognized by their short type whichever door
 * declared them: `pulumi-nodejs:dynamic/vplatform:Drive` (SDK) or
 * `vplatform:index:Drive` (the resource plugin).
 */

export type Level = "advisory" | "mandatory" | "disabled";

/** A resource as a policy sees it: type token, URN, its inputs, and (stack rules) the types each input came from. */
export interface PolicyResource {
  type: string;
  urn: string;
  props: Record<string, unknown>;
  /** Per input, the types of the program's resources whose outputs it was given. */
  inputSources?: Record<string, string[]>;
}

interface RuleBase<C> {
  name: string;
  description: string;
  enforcementLevel: Level;
  /** JSON Schema properties of the rule's settings, with their defaults. */
  settings: { [K in keyof C]: { type: "string" | "number" | "array"; default: C[K]; description: string; items?: { type: "string" } } };
}

export interface ResourceRule<C> extends RuleBase<C> {
  /** The short resource type it applies to. */
  appliesTo: string;
  check(resource: PolicyResource, config: C): string[];
}

export interface StackRule<C> extends RuleBase<C> {
  checkStack(resources: PolicyResource[], config: C): { urn: string; message: string }[];
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

const known = (v: unknown): boolean => v !== undefined && v !== null;

export const prodVmsRefusePowerCycle: ResourceRule<{ stacks: string[] }> = {
  name: "prod-vms-refuse-power-cycle",
  description: "VMs of production stacks must set powerCyclePolicy: refuse, so no change restarts them unannounced",
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
    return [`stack '${stack}' is production (${stacks.join(", ")}): set powerCyclePolicy: refuse on VM '${String(props.name)}'`];
  },
};

export const vmSizeLimits: ResourceRule<{ maxRamMB: number; maxCpuCores: number }> = {
  name: "vm-size-limits",
  description: "VM RAM and CPU cores within the team's limits",
  enforcementLevel: "mandatory",
  settings: {
    maxRamMB: { type: "number", default: 65536, description: "Largest ram, in MB" },
    maxCpuCores: { type: "number", default: 16, description: "Most cpuCores" },
  },
  appliesTo: "VirtualMachine",
  check: ({ props }, { maxRamMB, maxCpuCores }) => [
    ...(known(props.ram) && Number(props.ram) > maxRamMB
      ? [`VM '${String(props.name)}': ram ${String(props.ram)} MB is above the limit of ${maxRamMB} MB`]
      : []),
    ...(known(props.cpuCores) && Number(props.cpuCores) > maxCpuCores
      ? [`VM '${String(props.name)}': cpuCores ${String(props.cpuCores)} is above the limit of ${maxCpuCores}`]
      : []),
  ],
};

export const driveLimits: ResourceRule<{ maxSizeGiB: number; allowedTiers: number[] }> = {
  name: "drive-limits",
  description: "Drives within a size cap and on allowed storage tiers",
  enforcementLevel: "mandatory",
  settings: {
    maxSizeGiB: { type: "number", default: 2048, description: "Largest disksize, in GiB" },
    allowedTiers: { type: "array", default: [1, 2, 3, 4, 5], description: "Storage tiers (preferredTier) drives may use" },
  },
  appliesTo: "Drive",
  check: ({ props }, { maxSizeGiB, allowedTiers }) => {
    const drive = `drive '${String(props.name ?? "")}'`;
    return [
      ...(known(props.disksize) && Number(props.disksize) > maxSizeGiB * GIB
        ? [`${drive}: disksize ${Number(props.disksize) / GIB} GiB is above the cap of ${maxSizeGiB} GiB`]
        : []),
      ...(known(props.preferredTier) && !allowedTiers.includes(Number(props.preferredTier))
        ? [`${drive}: preferredTier ${String(props.preferredTier)} is not an allowed tier (${allowedTiers.join(", ")})`]
        : []),
    ];
  },
};

/** A NIC's vnet is given by a Vnet the stack declares (its `id`), or is one of the keys the team lists. */
export const nicsOnDeclaredVnets: StackRule<{ allowedVnetKeys: string[] }> = {
  name: "nics-on-declared-vnets",
  description: "Every NIC is on a vnet the stack declares (or one the team allows by key)",
  enforcementLevel: "mandatory",
  settings: {
    allowedVnetKeys: { type: "array", items: { type: "string" }, default: [], description: "Keys of existing vnets NICs may use" },
  },
  checkStack: (resources, { allowedVnetKeys }) => {
    const fromDeclaredVnet = (r: PolicyResource) => (r.inputSources?.vnet ?? []).some((t) => vplatformType(t) === "Vnet");
    return resources
      .filter((r) => vplatformType(r.type) === "Nic")
      .filter((r) => !fromDeclaredVnet(r) && !allowedVnetKeys.includes(String(r.props.vnet)))
      .map((r) => ({
        urn: r.urn,
        message: `NIC '${r.urn.split("::").pop()}': vnet ${String(r.props.vnet)} is not declared by this stack: declare it, or list its key in allowedVnetKeys`,
      }));
  },
};

const ipv4ToInt = (ip: string) => ip.split(".").reduce((n, octet) => n * 256 + Number(octet), 0);

function cidrRange(cidr: string): [number, number] | undefined {
  const m = /^(\d+\.\d+\.\d+\.\d+)\/(\d+)$/.exec(cidr);
  if (!m) return undefined;
  const size = 2 ** (32 - Number(m[2]));
  const start = Math.floor(ipv4ToInt(m[1]) / size) * size;
  return [start, start + size - 1];
}

export const dhcpInsideNetwork: ResourceRule<Record<string, never>> = {
  name: "dhcp-inside-network",
  description: "A vnet's DHCP range lies inside its network",
  enforcementLevel: "mandatory",
  settings: {},
  appliesTo: "Vnet",
  check: ({ props }) => {
    const range = typeof props.network === "string" ? cidrRange(props.network) : undefined;
    if (!range) return [];
    return (["dhcpStart", "dhcpStop"] as const)
      .filter((f) => typeof props[f] === "string" && (ipv4ToInt(props[f] as string) < range[0] || ipv4ToInt(props[f] as string) > range[1]))
      .map((f) => `vnet '${String(props.name)}': ${f} ${String(props[f])} is outside its network ${String(props.network)}`);
  },
};

/** API keys (type vplatform:index:ApiKey, inputs expiresAt and ipAllow): they expire soon enough and carry an IP allow list. */
export const apiKeysExpireAndAreFenced: ResourceRule<{ maxDays: number }> = {
  name: "api-keys-expire-and-are-fenced",
  description: "API keys expire within N days and carry an IP allow list",
  enforcementLevel: "mandatory",
  settings: { maxDays: { type: "number", default: 90, description: "Longest lifetime of an API key, in days" } },
  appliesTo: "ApiKey",
  check: ({ props }, { maxDays }, now = Date.now()) => {
    const key = `API key '${String(props.name ?? "")}'`;
    const expires =
      typeof props.expiresAt === "number"
        ? props.expiresAt * (props.expiresAt < 1e12 ? 1000 : 1)
        : Date.parse(String(props.expiresAt ?? ""));
    const problems: string[] = [];
    if (!Number.isFinite(expires)) problems.push(`${key}: set expiresAt (within ${maxDays} days)`);
    else if (expires - now > maxDays * DAY_MS)
      problems.push(`${key}: expiresAt is more than ${maxDays} days away: rotate keys at least every ${maxDays} days`);
    if (!Array.isArray(props.ipAllow) || props.ipAllow.length === 0) problems.push(`${key}: set ipAllow (the addresses that may use it)`);
    return problems;
  },
};

/** Webhooks (type vplatform:index:Webhook, inputs url and allowInsecure): HTTPS only. */
export const webhooksOverHttps: ResourceRule<Record<string, never>> = {
  name: "webhooks-over-https",
  description: "Webhooks call HTTPS URLs only, with allowInsecure never set",
  enforcementLevel: "mandatory",
  settings: {},
  appliesTo: "Webhook",
  check: ({ props }) => [
    ...(known(props.url) && !/^https:\/\//i.test(String(props.url))
      ? [`webhook '${String(props.name ?? "")}': url ${String(props.url)} is not HTTPS`]
      : []),
    ...(props.allowInsecure === true ? [`webhook '${String(props.name ?? "")}': allowInsecure is forbidden`] : []),
  ],
};

export const resourceRules = [
  prodVmsRefusePowerCycle,
  vmSizeLimits,
  driveLimits,
  dhcpInsideNetwork,
  apiKeysExpireAndAreFenced,
  webhooksOverHttps,
];
export const stackRules = [nicsOnDeclaredVnets];
