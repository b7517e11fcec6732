/**
 * A lab for a class, planned: the copies of one template, their names, their networks carved from a pool,
 * and each copy's VMs with their references resolved to the copy. Pure: the SDK's `vp.Lab` declares what
 * this plans, and the environment file checks its labs with the same functions (both doors, one rule).
 * A copy is known by its number forever: copy 7 keeps its name and network whatever the count, so growing
 * the class adds copies and shrinking it removes the last ones, renumbering nothing.
 */
import { parseCidr } from "../schemas/common";

/** The copy-name pattern when none is given: `course-01`. */
export const DEFAULT_COPY_NAME = "{lab}-{n}";
/** Each copy's network, when the lab does not say: one /24. */
export const DEFAULT_COPY_PREFIX = 24;
/** The longest copy prefix: a /30 still holds a gateway and one DHCP address. */
export const MAX_COPY_PREFIX = 30;

/** What a lab's copies are planned from. */
export interface LabShape {
  name: string;
  copies: number;
  pool: string;
  copyName?: string;
  copyPrefix?: number;
}

/** A problem of a lab's shape: the field to change, and what is wrong and what to do. */
export interface LabProblem {
  field: "copies" | "copyName" | "pool" | "copyPrefix";
  message: string;
}

export interface CopyNetwork {
  network: string;
  gateway: string;
  dhcpStart: string;
  dhcpStop: string;
}

export interface LabCopy extends CopyNetwork {
  /** 1-based, stable. */
  number: number;
  /** The number zero-padded to two digits: the key of the copy in outputs (`01`). */
  key: string;
  /** The copy's name: its vnet's and its user's, and the prefix of its VMs'. */
  name: string;
}

/** The width copy numbers are padded to: fixed, never the count's, so growing past 9 or 99 copies renames none. */
export const COPY_NUMBER_WIDTH = 2;

/** `n` zero-padded to COPY_NUMBER_WIDTH digits (07; 100 stays 100). */
export const copyKey = (n: number): string => String(n).padStart(COPY_NUMBER_WIDTH, "0");

/** The name of copy `n`: the pattern with `{lab}` and `{n}` (zero-padded) filled in. */
export const copyName = (pattern: string, lab: string, n: number): string => pattern.replaceAll("{lab}", lab).replaceAll("{n}", copyKey(n));

/** A VM of a copy: `course-01-web`. */
export const copyVmName = (copy: string, vm: string): string => `${copy}-${vm}`;
/** The reset snapshot of a copy's VM: `course-01-web-snapshot-start` (the platform name is the snapshot's own). */
export const copySnapshotName = (vm: string, snapshot: string): string => `${vm}-snapshot-${snapshot}`;
/** A copy's API key: `course-01-key` (its user is named as the copy). */
export const copyApiKeyName = (copy: string): string => `${copy}-key`;

const intToIpv4 = (n: number): string => [24, 16, 8, 0].map((shift) => (n >>> shift) & 255).join(".");

/** Addresses in a block of `prefix` bits. */
const blockSize = (prefix: number): number => 2 ** (32 - prefix);

/** How many copy networks of `/copyPrefix` the pool holds (0 when the pool is smaller than one). */
export const copiesThatFit = (poolBits: number, copyPrefix: number): number => (copyPrefix < poolBits ? 0 : 2 ** (copyPrefix - poolBits));

/**
 * Copy `n`'s network: the pool's n-th block of `/copyPrefix`, its gateway the first address, its DHCP range the
 * same share of the block a /24's .100-.199 is (a /25 gets .50-.99 of its 128, a /23 .200-.399).
 */
export function copyNetwork(pool: string, copyPrefix: number, n: number): CopyNetwork {
  const { base } = parseCidr(pool)!;
  const size = blockSize(copyPrefix);
  const start = base + (n - 1) * size;
  return {
    network: `${intToIpv4(start)}/${copyPrefix}`,
    gateway: intToIpv4(start + 1),
    dhcpStart: intToIpv4(start + Math.ceil((size * 100) / 256)),
    dhcpStop: intToIpv4(start + Math.floor((size * 200) / 256) - 1),
  };
}

/** The problems of a lab's shape, none when its copies can be planned. */
export function labProblems(lab: LabShape): LabProblem[] {
  const pattern = lab.copyName ?? DEFAULT_COPY_NAME;
  const prefix = lab.copyPrefix ?? DEFAULT_COPY_PREFIX;
  const problems: LabProblem[] = [];
  if (!Number.isInteger(lab.copies) || lab.copies < 1) problems.push({ field: "copies", message: "a lab has at least 1 copy" });
  if (!Number.isInteger(prefix) || prefix < 1 || prefix > MAX_COPY_PREFIX)
    problems.push({ field: "copyPrefix", message: `a prefix length from 1 to ${MAX_COPY_PREFIX} (24: one /24 per copy)` });
  const pool = parseCidr(lab.pool);
  if (!pool) problems.push({ field: "pool", message: `'${lab.pool}' is not a CIDR block: write one like 10.100.0.0/16` });
  if (problems.length > 0) return problems;
  const twice = equalNames(pattern, lab.name, lab.copies);
  if (twice)
    problems.push({
      field: "copyName",
      message: `'${pattern}' makes two copies named '${twice.name}' (copies ${twice.first} and ${twice.second}): put {n} in the pattern`,
    });
  const mask = pool!.bits === 0 ? 0 : (~0 << (32 - pool!.bits)) >>> 0;
  if ((pool!.base & mask) >>> 0 !== pool!.base)
    problems.push({
      field: "pool",
      message: `'${lab.pool}' is not the start of its block: write ${intToIpv4((pool!.base & mask) >>> 0)}/${pool!.bits}`,
    });
  const fit = copiesThatFit(pool!.bits, prefix);
  if (fit < lab.copies)
    problems.push({
      field: "pool",
      message: `the pool ${lab.pool} holds ${fit} /${prefix} network${fit === 1 ? "" : "s"}, too few for ${lab.copies} copies: give a larger pool (at most ${fit} copies fit)`,
    });
  return problems;
}

/** The first two copies that the pattern names alike, if any. */
function equalNames(pattern: string, lab: string, copies: number): { name: string; first: number; second: number } | undefined {
  const seen = new Map<string, number>();
  for (let n = 1; n <= copies; n++) {
    const name = copyName(pattern, lab, n);
    const first = seen.get(name);
    if (first !== undefined) return { name, first, second: n };
    seen.set(name, n);
  }
  return undefined;
}

/** The copies of a lab, by number; throws the lab's problems when it has some (check with labProblems first). */
export function planCopies(lab: LabShape): LabCopy[] {
  const problems = labProblems(lab);
  if (problems.length > 0) throw new Error(problems.map((p) => `lab '${lab.name}': ${p.field}: ${p.message}`).join("\n"));
  const pattern = lab.copyName ?? DEFAULT_COPY_NAME;
  const prefix = lab.copyPrefix ?? DEFAULT_COPY_PREFIX;
  return Array.from({ length: lab.copies }, (_, i) => ({
    number: i + 1,
    key: copyKey(i + 1),
    name: copyName(pattern, lab.name, i + 1),
    ...copyNetwork(lab.pool, prefix, i + 1),
  }));
}

/** Whether two CIDR blocks share an address. */
export function networksOverlap(a: string, b: string): boolean {
  const [x, y] = [parseCidr(a), parseCidr(b)];
  if (!x || !y) return false;
  const bits = Math.min(x.bits, y.bits);
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
  return (x.base & mask) >>> 0 === (y.base & mask) >>> 0;
}

/** The copies whose network overlaps `network`. */
export const copiesOverlapping = (copies: LabCopy[], network: string): LabCopy[] =>
  copies.filter((c) => networksOverlap(c.network, network));

/** What a reference of a copy's VM resolves to: the copy's vnet, a VM of the same copy, or what was given. */
export type CopyRef<R> = { copyVnet: true } | { copyVm: string } | { given: R };

/**
 * A VM of the template as a lab takes it: its local name, an optional source to clone (a VM, or a snapshot: a
 * term's image pinned), NICs with an optional vnet.
 */
export interface TemplateVm<R> {
  name: string;
  cloneFrom?: { vm: R | string } | { snapshot: R };
  nics?: { vnet?: R }[];
}

/** A template VM's clone source for one copy: a VM of the template is that copy's; a snapshot is the one given. */
type CopyClone<C, R> = C extends { vm: unknown }
  ? Omit<C, "vm"> & { vm: CopyRef<R> }
  : C extends { snapshot: unknown }
    ? Omit<C, "snapshot"> & { snapshot: { given: R } }
    : never;

/** A template VM stamped for one copy: named for it, its template and NICs' vnets resolved to the copy. */
export type CopyVm<V extends TemplateVm<R>, R> = Omit<V, "name" | "cloneFrom" | "nics"> & {
  /** The VM's name in the template (the key of the copy's outputs). */
  template: string;
  name: string;
  cloneFrom?: CopyClone<NonNullable<V["cloneFrom"]>, R>;
  nics: (Omit<NonNullable<V["nics"]>[number], "vnet"> & { vnet: CopyRef<R> })[];
};

/**
 * The template's VMs for copy `copy`, templates before their clones: `web` is `course-01-web`; a NIC without a
 * vnet is on the copy's vnet; a clone of a VM of the template clones that copy's VM; other references (a
 * snapshot, a VM outside the lab) are kept.
 */
export function copyVms<V extends TemplateVm<R>, R>(vms: V[], copy: string): CopyVm<V, R>[] {
  const local = new Set(vms.map((v) => v.name));
  const resolved = (cloneFrom: TemplateVm<R>["cloneFrom"] & object) => {
    if (!("vm" in cloneFrom)) return { ...cloneFrom, snapshot: { given: cloneFrom.snapshot } };
    const source = cloneFrom.vm;
    return { ...cloneFrom, vm: typeof source === "string" && local.has(source) ? { copyVm: copyVmName(copy, source) } : { given: source } };
  };
  return (cloneOrder(vms) ?? vms).map((v) => {
    const { name, cloneFrom, nics, ...rest } = v;
    return {
      ...rest,
      template: name,
      name: copyVmName(copy, name),
      ...(cloneFrom ? { cloneFrom: resolved(cloneFrom) } : {}),
      nics: (nics ?? []).map(({ vnet, ...nic }) => ({ ...nic, vnet: vnet === undefined ? { copyVnet: true } : { given: vnet } })),
    } as CopyVm<V, R>;
  });
}

/** VMs ordered so that every template among them comes before its clones; undefined on a cycle. */
export function cloneOrder<T extends { name: string; cloneFrom?: object }>(vms: T[]): T[] | undefined {
  const byName = new Map(vms.map((v) => [v.name, v]));
  const done = new Set<string>();
  const visiting = new Set<string>();
  const out: T[] = [];
  const visit = (vm: T): boolean => {
    if (done.has(vm.name)) return true;
    if (visiting.has(vm.name)) return false;
    visiting.add(vm.name);
    const source = vm.cloneFrom && "vm" in vm.cloneFrom ? vm.cloneFrom.vm : undefined; // a snapshot is no VM of the list
    const template = typeof source === "string" ? byName.get(source) : undefined;
    if (template && !visit(template)) return false;
    visiting.delete(vm.name);
    done.add(vm.name);
    out.push(vm);
    return true;
  };
  return vms.every(visit) ? out : undefined;
}

/** A vnet already on the platform, as a look-up of the vnets table reads it. */
export interface ExistingVnet {
  name: string;
  network?: string | null;
}

/**
 * The lab's copies whose network overlaps a vnet on the platform other than the copies' own (each copy's vnet
 * is named as the copy, and is on the platform after the first `up`): one message per clash.
 */
export function existingVnetClashes(lab: string, copies: LabCopy[], vnets: ExistingVnet[]): string[] {
  const own = new Set(copies.map((c) => c.name));
  return vnets
    .filter((v) => !own.has(v.name) && v.network)
    .flatMap((v) =>
      copiesOverlapping(copies, v.network!).map(
        (c) =>
          `lab '${lab}': pool: copy ${c.name}'s network ${c.network} overlaps the existing vnet '${v.name}' (${v.network}): choose a pool clear of it`,
      ),
    );
}
