import type { Environment } from "./environmentTypes.generated";
import type { EnvironmentProblem, SourceLocation } from "./environment-error";
import { formatPath } from "../provider/schemas/common";
import { USER_TABLE, VM_TABLE, VNET_TABLE } from "../provider/schemas/tables";

/**
 * References of an environment file to rows it does not declare: a NIC's vnet, a clone's template VM, a
 * trigger's VM, a key's user, written by the name of a row already on the platform. The program looks those
 * rows up by name; one that is not there would fail the look-up mid-preview, far from the file. They are
 * checked first, one list of names per table, and a missing one is a file error at the line that names it.
 */

/** A reference to a row by name that the file does not declare. */
export interface ExistingReference {
  path: (string | number)[];
  table: string;
  /** For messages: "vnet". */
  noun: string;
  name: string;
}

const KEY = /^\d+$/;

type Vm = Pick<Environment["vms"][number], "name" | "cloneFrom"> & { nics: { vnet?: string }[] };

/** The references of `env` to rows it does not declare by that name (keys are used as they are). */
export function existingReferences(env: Partial<Environment>): ExistingReference[] {
  const declared = {
    [VNET_TABLE]: new Set((env.vnets ?? []).map((v) => v.name)),
    [VM_TABLE]: new Set((env.vms ?? []).map((v) => v.name)),
    [USER_TABLE]: new Set((env.users ?? []).map((u) => u.name)),
  };
  type Table = keyof typeof declared;
  const refer = (table: Table, noun: string, name: string | undefined, path: (string | number)[], local?: Set<string>) =>
    name === undefined || KEY.test(name) || declared[table].has(name) || local?.has(name) ? [] : [{ path, table, noun, name }];
  // A lab's VMs may also clone a VM of the lab's own template (that copy's).
  const vmRefs = (vms: Vm[], at: (string | number)[], templates?: Set<string>) =>
    vms.flatMap((vm, i) => [
      ...refer(VM_TABLE, "VM", vm.cloneFrom?.vm, [...at, i, "cloneFrom", "vm"], templates),
      ...vm.nics.flatMap((nic, j) => refer(VNET_TABLE, "vnet", nic.vnet, [...at, i, "nics", j, "vnet"])),
    ]);
  return [
    ...vmRefs(env.vms ?? [], ["vms"]),
    ...(env.labs ?? []).flatMap((lab, l) => vmRefs(lab.vms, ["labs", l, "vms"], new Set(lab.vms.map((vm) => vm.name)))),
    ...(env.eventTriggers ?? []).flatMap((t, i) =>
      t.type === VM_TABLE ? refer(VM_TABLE, "VM", t.object, ["eventTriggers", i, "object"]) : [],
    ),
    ...(env.apiKeys ?? []).flatMap((k, i) => refer(USER_TABLE, "user", k.user, ["apiKeys", i, "user"])),
  ];
}

/** The references whose row is not on the platform (`names` of each table as read), each at its place in the file. */
export function missingReferences(
  refs: ExistingReference[],
  names: ReadonlyMap<string, ReadonlySet<string>>,
  locate: (path: readonly PropertyKey[]) => SourceLocation,
): EnvironmentProblem[] {
  return refs
    .filter((ref) => !names.get(ref.table)?.has(ref.name))
    .map((ref) => ({
      location: locate(ref.path),
      path: formatPath(ref.path),
      message:
        `no ${ref.noun} named '${ref.name}' is declared in this file or exists on the platform: ` +
        `declare it here, correct the name, or give an existing ${ref.noun}'s key`,
    }));
}
