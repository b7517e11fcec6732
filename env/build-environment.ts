import * as pulumi from "@pulumi/pulumi";
import * as vp from "../sdk";
import {
  ENVIRONMENT_KINDS,
  type EnvironmentKinds,
  LABS,
  type ListedKind,
  type ListedToken,
  type ListOf,
  listedTokensOf,
  logicalNameIn,
} from "./environment-kinds";
import { cloneOrder } from "../provider/plan/lab";
import type { Environment } from "./environmentTypes.generated";
import { type VmDeclarationArgs, declareVm } from "../sdk/vmDeclaration";
import { GROUP_TABLE, USER_TABLE, VM_TABLE, VNET_TABLE } from "../provider/schemas/tables";
import { DeclaredResource } from "../sdk/declaredResource";
import type { InputsByToken } from "../sdk/schemaTypes.generated";

type VmEntry = Environment["vms"][number];
type LabEntry = Environment["labs"][number];
/** An entry of the file's list of `T`. */
type Entry<T extends ListedToken> = Environment[ListOf<T>][number];

/** An environment as validated; any list may be left out (as code written before its kind existed does). */
export type BuildableEnvironment = Partial<Environment>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const KEY = /^\d+$/;

/** What an entry of the file declared: the resource others refer to, and its stack output. */
interface Declared<O> {
  resource: pulumi.CustomResource;
  output: O;
}

/** How entries refer to others: by the name of an entry declared before them, else as the key or name of an existing row. */
interface References {
  /** The key of `ref`: the resource of `token` declared as `ref`, else `ref` itself when a key, else the existing row named `ref`. */
  key(token: ListedToken, ref: string): pulumi.Output<string>;
  /** The resource of `token` this file declares as `ref`, if any. */
  declared(token: ListedToken, ref: string): pulumi.CustomResource | undefined;
  /** A hardware resource group's UUID, from a UUID or a name. */
  resourceGroup(ref: string): pulumi.Output<string>;
}

type Key = pulumi.Output<string>;

/** What the stack outputs hold for one entry of the kinds that need more than its key. */
interface StackOutputs {
  VirtualMachine: { id: Key; machineKey: Key; status: pulumi.Output<string> };
  /** The key's secret is a Pulumi secret output: a stack reference can use it; the engine shows it as [secret]. */
  ApiKey: { id: Key; secret: pulumi.Output<string> };
}
/** What the stack outputs hold for one entry of each kind: its key, and what a program needs besides. */
type StackOutputOf<T extends ListedToken> = T extends keyof StackOutputs ? StackOutputs[T] : Key;

interface Builder<T extends ListedToken> {
  /** Default: the resource of its token, declared with the entry as it is (its SDK class's). */
  declare?(entry: Entry<T>, name: string, refs: References): Declared<StackOutputOf<T>>;
  /** The entries in the order to declare them (default: as listed). */
  order?(entries: Entry<T>[]): Entry<T>[];
  /** The existing row a name refers to, for kinds that can be looked up by name (else a reference is a key). */
  existing?(name: string): pulumi.Output<string>;
}

const declared = <O>(resource: pulumi.CustomResource, output: O): Declared<O> => ({ resource, output });
/** A resource whose stack output is its key. */
const keyed = (resource: pulumi.CustomResource): Declared<Key> => declared(resource, resource.id);

/** How the listed kinds whose entries refer to others, or are looked up by name, are declared, and their stack outputs. */
const BUILDERS: { [T in ListedToken]?: Builder<T> } = {
  Vnet: {
    declare: (v, name) => keyed(new vp.Vnet(name, v)),
    existing: (name) => vp.getVnetOutput({ name }).id,
  },
  VirtualMachine: {
    // Hardware goes with its VM (deletedWith), so the VM itself must be gone before the vnets of its NICs.
    declare: (entry, _name, refs) => {
      const made = declareVm(resolvedVm(entry, refs), { dependsOn: entry.nics.flatMap((n) => refs.declared("Vnet", n.vnet) ?? []) });
      return declared(made.vm, { id: made.vm.id, machineKey: made.vm.machineKey, status: made.status });
    },
    order: (vms) => cloneOrder(vms) ?? vms,
    existing: (name) => vp.getVirtualMachineOutput({ name }).id,
  },
  Task: {
    // A task's one object by name: a webhook of the file, or a VM or user of the file or an existing one.
    declare: (t, name, refs) => {
      const key = <K extends "Webhook" | "VirtualMachine" | "User">(kind: K, ref: string | undefined) =>
        ref === undefined ? undefined : refs.key(kind, ref);
      return keyed(
        new vp.Task(name, { ...t, webhook: key("Webhook", t.webhook), vm: key("VirtualMachine", t.vm), user: key("User", t.user) }),
      );
    },
  },
  EventTrigger: {
    // A trigger's object is a VM of the file or an existing VM by name for type vms, else a key.
    declare: (t, name, refs) => {
      const object = t.object === undefined ? undefined : t.type === VM_TABLE ? refs.key("VirtualMachine", t.object) : t.object;
      return keyed(new vp.EventTrigger(name, { ...t, task: refs.key("Task", t.task), object }));
    },
  },
  Schedule: {
    declare: (s, name, refs) => keyed(new vp.Schedule(name, { ...s, tasks: s.tasks.map((t) => refs.key("Task", t)) })),
  },
  User: {
    declare: (u, name) => keyed(new vp.User(name, u)),
    existing: (name) => vp.getUserOutput({ name }).id,
  },
  ApiKey: {
    declare: (k, name, refs) => {
      const key = new vp.ApiKey(name, { ...k, user: k.user === undefined ? undefined : refs.key("User", k.user) });
      return declared(key, { id: key.id, secret: key.secret });
    },
  },
  Group: {
    // Members by name: users of the file or existing ones, groups of the file listed before it; keys as they are.
    declare: (g, name, refs) => {
      const keys = (token: "User" | "Group", refs_: string[] | undefined) => refs_?.map((r) => refs.key(token, r));
      return keyed(new vp.Group(name, { ...g, users: keys("User", g.users), memberGroups: keys("Group", g.memberGroups) }));
    },
  },
  Permission: {
    // The grantee by name; the row by name for the tables whose rows the file names (a VM, a vnet, a user, a group).
    declare: (p, name, refs) => {
      const rowKind = ROW_KINDS[p.table];
      const row = p.row === undefined ? undefined : rowKind ? refs.key(rowKind, p.row) : p.row;
      const grantee = p.user !== undefined ? { user: refs.key("User", p.user) } : { group: refs.key("Group", String(p.group)) };
      return keyed(new vp.Permission(name, { ...p, ...grantee, row }));
    },
  },
};

/** The tables whose rows a grant of the file names by name: the kinds of those rows. */
const ROW_KINDS: Partial<Record<string, ListedToken>> = {
  [VM_TABLE]: "VirtualMachine",
  [VNET_TABLE]: "Vnet",
  [USER_TABLE]: "User",
  [GROUP_TABLE]: "Group",
};

/** The builder of one kind, its entry typed as any listed kind's (the kinds are declared in a loop). */
const builderOf = (token: string): Builder<ListedToken> => (BUILDERS as Record<string, Builder<ListedToken>>)[token] ?? {};

/** The stack outputs: per list of the file, each entry's output by its logical name; per lab, its copies. */
export type BuiltEnvironment = { [T in ListedToken as ListOf<T>]: Record<string, StackOutputOf<T>> } & {
  labs: Record<string, { copies: vp.Lab["copies"] }>;
};

/** Declares the resource of `token` named `name` with `args`: by default through the SDK (its class's base). */
export type DeclareResource = (token: string, name: string, args: object) => pulumi.CustomResource;

const throughSdk: DeclareResource = (token, name, args) => new DeclaredResource(token as keyof InputsByToken, name, args, undefined);

/**
 * Declares the resources of an environment, kind by kind in the order of ENVIRONMENT_KINDS. Names in the
 * file resolve to the resources declared here first, then to existing rows (looked up by name); plain keys
 * and UUIDs are used as they are.
 */
export function buildEnvironment(env: BuildableEnvironment): BuiltEnvironment {
  return buildEnvironmentOf(ENVIRONMENT_KINDS, env, throughSdk) as BuiltEnvironment;
}

/**
 * `buildEnvironment` for a file of other kinds (a test's resource beside the real ones, its entries validated by
 * environmentSchemaOf), each declared by `declare` unless its builder says otherwise.
 */
export function buildEnvironmentOf(
  kinds: EnvironmentKinds,
  env: Partial<Record<string, readonly unknown[]>>,
  declare: DeclareResource,
): Record<string, Record<string, unknown>> {
  const byKind = new Map<string, Map<string, Declared<unknown>>>();
  const refs: References = {
    declared: (token, ref) => byKind.get(token)?.get(ref)?.resource,
    key(token, ref) {
      const { existing } = builderOf(token);
      return refs.declared(token, ref)?.id ?? (KEY.test(ref) || !existing ? pulumi.output(ref) : existing(ref));
    },
    resourceGroup: (ref) => (UUID.test(ref) ? pulumi.output(ref) : vp.getResourceGroupOutput({ name: ref }).uuid),
  };
  const outputs = listedTokensOf(kinds).map((token) => {
    const { list } = kinds[token] as ListedKind;
    const builder = builderOf(token);
    const entries = (env[list] ?? []) as Entry<ListedToken>[];
    // Filled as it goes: a VM's template is declared before its clones.
    const kind = new Map<string, Declared<unknown>>();
    byKind.set(token, kind);
    for (const entry of builder.order?.(entries) ?? entries) {
      const name = logicalNameIn(kinds, token, entry);
      kind.set(name, builder.declare?.(entry, name, refs) ?? keyed(declare(token, name, entry)));
    }
    return [list, Object.fromEntries([...kind].map(([name, d]) => [name, d.output]))];
  });
  const labs = ((env[LABS.list] ?? []) as LabEntry[]).map((lab) => [lab.name, { copies: declareLab(lab, refs).copies }]);
  return { ...Object.fromEntries(outputs), [LABS.list]: Object.fromEntries(labs) };
}

/**
 * A lab of the file through vp.Lab, after every list: a clone's template naming a VM of the lab stays a name
 * (each copy clones its own), other names resolve as a file VM's do; a NIC without vnet is on the copy's.
 */
function declareLab({ name, vms, ...lab }: LabEntry, refs: References): vp.Lab {
  const local = new Set(vms.map((v) => v.name));
  const vm = (ref: string) => (refs.declared("VirtualMachine", ref) as vp.VirtualMachine | undefined) ?? refs.key("VirtualMachine", ref);
  const vnet = (ref: string) => (refs.declared("Vnet", ref) as vp.Vnet | undefined) ?? refs.key("Vnet", ref);
  return new vp.Lab(name, {
    ...lab,
    vms: vms.map(({ cloneFrom, nics, devices, ...v }) => ({
      ...v,
      ...(cloneFrom ? { cloneFrom: cloneSource(cloneFrom, (name) => (local.has(name) ? name : vm(name))) } : {}),
      nics: nics.map((n) => ({ ...n, vnet: n.vnet === undefined ? undefined : vnet(n.vnet) })),
      devices: devices.map((d) => ({ ...d, resourceGroup: refs.resourceGroup(d.resourceGroup) })),
    })),
  });
}

/** A clone's source: its template VM by `vm` (a name or a key), or the snapshot whose key it gives. */
function cloneSource<V>(
  { vm, snapshot, ...params }: NonNullable<VmEntry["cloneFrom"]>,
  template: (ref: string) => V,
): typeof params & ({ vm: V } | { snapshot: string }) {
  return vm === undefined ? { ...params, snapshot: String(snapshot) } : { ...params, vm: template(vm) };
}

/** A VM entry with its references resolved: NICs' vnets and the clone's template to keys, devices' groups to UUIDs. */
function resolvedVm(entry: VmEntry, refs: References): VmDeclarationArgs {
  const { cloneFrom, nics, devices, ...vm } = entry;
  return {
    ...vm,
    ...(cloneFrom ? { cloneFrom: cloneSource(cloneFrom, (name) => refs.key("VirtualMachine", name)) } : {}),
    nics: nics.map((n) => ({ ...n, vnet: refs.key("Vnet", n.vnet) })),
    devices: devices.map((d) => ({ ...d, resourceGroup: refs.resourceGroup(d.resourceGroup) })),
  };
}
