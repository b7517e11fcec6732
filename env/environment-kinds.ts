import type { ResourceToken } from "../provider/resources";

/** An event trigger of a file, known by what it does: two alike are one declared twice. */
export const eventTriggerIdentity = (t: { task: string; type: string; event: string; object?: string; tag?: string }): string =>
  [t.task, t.type, t.event, t.object, t.tag].filter((part) => part !== undefined).join("-");

/** A grant of a file, known by whom it grants what: two alike are one declared twice. */
export const permissionIdentity = (p: { user?: string; group?: string; table: string; row?: string }): string =>
  [p.user ?? `group-${p.group}`, "on", p.table === "/" ? "every-table" : p.table, p.row].filter((part) => part !== undefined).join("-");

/**
 * Where each resource of the registry (provider/resources/index.ts) stands in an environment file: a top-level
 * list of its own, or why it has none. A token of the registry without an entry here does not compile, so a
 * new resource is a decision here. The schema's lists, the builder and the stack outputs follow this table, in
 * its order (a kind may refer by name to the kinds before it); an entry's noun in messages is its resource's
 * (provider/schemas/nouns.ts). Plain data: the published declarations of `vplatform/env` read it, and they import
 * no zod.
 */
export const ENVIRONMENT_KINDS = {
  Vnet: { list: "vnets" },
  VirtualMachine: { list: "vms" },
  Webhook: { list: "webhooks" },
  User: { list: "users" },
  Task: { list: "tasks" },
  EventTrigger: { list: "eventTriggers", identity: eventTriggerIdentity },
  Schedule: { list: "schedules" },
  ApiKey: { list: "apiKeys" },
  Group: { list: "groups" },
  Permission: { list: "permissions", identity: permissionIdentity },
  Drive: { notListed: "declared under its VM (vms[].drives), which it belongs to" },
  Nic: { notListed: "declared under its VM (vms[].nics), which it belongs to" },
  Device: { notListed: "declared under its VM (vms[].devices), which it belongs to" },
  VmPower: { notListed: "a VM's powerState declares it (started once the VM's hardware is attached)" },
  VmSnapshot: {
    notListed: "a snapshot is a VM at one moment, taken by a program (vp.VmSnapshot); a file declares what stays, not moments",
  },
} as const satisfies { readonly [T in ResourceToken]: ListedKind | NotListed };

/**
 * The labs of a file: no resource of the registry but a component (vp.Lab) stamping out copies of a template of
 * VMs, after every list (a lab's VMs refer to the file's vnets and VMs by name).
 */
export const LABS = { list: "labs", noun: "lab" } as const;

interface ListedKind {
  /** The file's top-level key, also the stack output's. */
  list: string;
  /** Entries without a `name`: their logical name (and what makes two of them one declared twice). */
  identity?(entry: never): string;
}

interface NotListed {
  /** Why the file has no list of it. */
  notListed: string;
}

type Kinds = typeof ENVIRONMENT_KINDS;
/** The resources an environment file lists at its top level. */
export type ListedToken = { [T in keyof Kinds]: Kinds[T] extends ListedKind ? T : never }[keyof Kinds];
/** The top-level key of a listed resource. */
export type ListOf<T extends ListedToken> = Kinds[T]["list"];

/** The listed resources, in the table's order. */
export const LISTED_TOKENS = (Object.keys(ENVIRONMENT_KINDS) as (keyof Kinds)[]).filter(
  (t): t is ListedToken => "list" in ENVIRONMENT_KINDS[t],
);

/** Every top-level list of a file, also the stack's outputs: the listed kinds' in the table's order, then the labs. */
export const ENVIRONMENT_LISTS: readonly string[] = [...LISTED_TOKENS.map((t) => ENVIRONMENT_KINDS[t].list), LABS.list];

/** The logical name of an entry of a list: its name, or its identity when its kind has no names. */
export function logicalName(token: ListedToken, entry: object): string {
  const kind: ListedKind = ENVIRONMENT_KINDS[token];
  return kind.identity ? kind.identity(entry as never) : (entry as { name: string }).name;
}
