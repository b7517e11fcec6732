/**
 * Per-object permissions, modelled on the maker's (the Terraform provider's `vergeio_permission`, pyVergeOS'
 * permission manager): grants in `permissions` to an identity (a user's or a group's) on a table (`row` 0: every
 * row; `/`: every table) or on one row, with the five rights list, read, create, modify, delete. The decisions
 * (which right each operation needs, how a child row falls back to its parent) are written down, with their
 * sources, in docs/platform-api.md ("Emulator notes: permissions").
 *
 * A user with a role keeps its role (the role decides first, then grants add to it); a user with role `none`
 * reaches only what is granted.
 */
import type { Row, TableDef } from "../../model/types";
import type { EmulatorContext } from "../../engine/context";
import { IDENTITY } from "../../model/names/identity";
import { COMPUTE } from "../../model/names/compute";
import { NETWORK } from "../../model/names/network";
import { ownerReference } from "../../engine/ownerReference";
import { memberKey } from "./members";

export const RIGHTS = ["list", "read", "create", "modify", "delete"] as const;
export type Right = (typeof RIGHTS)[number];

/** The identities a caller acts as: its user's and those of every group it is in, nested groups included. */
export function identitiesOf(ctx: EmulatorContext, userName: string): Set<number> {
  const user = ctx.find(IDENTITY.users, (u) => u.name === userName)[0];
  const ids = new Set<number>();
  if (!user) return ids;
  ids.add(userIdentity(user.$key));
  const seen = new Set<string>();
  const pending = [ownerReference(IDENTITY.users, user.$key)];
  while (pending.length) {
    const member = pending.pop()!;
    for (const m of ctx.find(IDENTITY.members, (x) => memberKey(x.member) === member)) {
      const group = ownerReference(IDENTITY.groups, m.parent_group);
      if (seen.has(group)) continue;
      seen.add(group);
      ids.add(groupIdentity(m.parent_group));
      pending.push(group);
    }
  }
  return ids;
}

/** Users and groups share one identity space (as on the maker's platform): even numbers users, odd ones groups. */
export const userIdentity = (key: unknown) => 2 * Number(key);
export const groupIdentity = (key: unknown) => 2 * Number(key) + 1;

export function identityOwner(identity: number): { table: typeof IDENTITY.users | typeof IDENTITY.groups; key: number } {
  return identity % 2 === 0 ? { table: IDENTITY.users, key: identity / 2 } : { table: IDENTITY.groups, key: (identity - 1) / 2 };
}

/** The grants that name `table` (or `/`) on `row` (or on the whole table), for these identities. */
function grantsOn(ctx: EmulatorContext, ids: Set<number>, table: string, row: unknown): Row[] {
  const key = row === undefined ? undefined : String(row);
  return ctx.find(
    IDENTITY.permissions,
    (g) =>
      ids.has(Number(g.identity)) &&
      (g.table === table || g.table === "/") &&
      (Number(g.row) === 0 || (key !== undefined && String(g.row) === key)),
  );
}

const holds = (grant: Row, right: Right) => grant[right] === true || (right === "list" && grant.read === true);

/**
 * The row a permission check falls back to (the spec's parent and owner fields): hardware, status, snapshot and
 * statistics rows to their machine, a machine to the VM or vnet it runs, a snapshot VM to its VM, an owned row to
 * its owner.
 */
export function parentOf(ctx: EmulatorContext, def: TableDef, row: Row): { table: string; row: Row } | undefined {
  // A snapshot is the VM at one moment: its VM row (and through its machine, its hardware) falls back to the VM's.
  if (def.name === COMPUTE.vms && row.is_snapshot === true) {
    const vm = row.parent_vm === null || row.parent_vm === undefined ? undefined : ctx.get(COMPUTE.vms, row.parent_vm);
    return vm ? { table: COMPUTE.vms, row: vm } : undefined;
  }
  if (def.name === COMPUTE.machines) {
    const vm = row.vm === null || row.vm === undefined ? undefined : ctx.get(COMPUTE.vms, row.vm);
    if (vm) return { table: COMPUTE.vms, row: vm };
    const vnet = row.vnet === null || row.vnet === undefined ? undefined : ctx.get(NETWORK.vnets, row.vnet);
    return vnet ? { table: NETWORK.vnets, row: vnet } : undefined;
  }
  const field = def.parent ?? (def.name.startsWith("machine_") && def.fields.machine?.ref === COMPUTE.machines ? "machine" : undefined);
  if (field) {
    const machine = ctx.get(COMPUTE.machines, row[field]);
    return machine ? { table: COMPUTE.machines, row: machine } : undefined;
  }
  if (def.owner && typeof row[def.owner] === "string") {
    const match = /^(?:\/v4\/)?([a-z_]+)\/(.+)$/.exec(String(row[def.owner]));
    const owner = match ? ctx.get(match[1], match[2]) : undefined;
    return owner && match ? { table: match[1], row: owner } : undefined;
  }
  return undefined;
}

/**
 * On a fallback to the parent, reading a child needs the same right on the parent; creating, changing or deleting
 * a child (a drive, a NIC, a snapshot) needs `create` on the parent row: a row-level `create` has no other meaning
 * (the row exists), and `modify` on a VM stays "run it" (power, restore, console, settings), not "rebuild it".
 */
const parentRight = (right: Right): Right => (right === "list" || right === "read" ? right : "create");

/** Whether the caller's grants give `right` on this row of `def` (its own grants first, then its parent's). */
export function grantAllows(ctx: EmulatorContext, ids: Set<number>, def: TableDef, row: Row, right: Right): boolean {
  let table = def;
  let current: Row | undefined = row;
  let needed = right;
  for (let depth = 0; current && depth < 5; depth++) {
    if (grantsOn(ctx, ids, table.name, current.$key).some((g) => holds(g, needed))) return true;
    const parent = parentOf(ctx, table, current);
    if (!parent) return false;
    table = ctx.store(parent.table).def;
    current = parent.row;
    needed = parentRight(needed);
  }
  return false;
}

/** Whether the caller's grants give `right` on the whole table (a grant on row 0 or on `/`). */
export function grantAllowsTable(ctx: EmulatorContext, ids: Set<number>, table: string, right: Right): boolean {
  return grantsOn(ctx, ids, table, undefined).some((g) => holds(g, right));
}

/** Whether any grant names one of these identities. */
export function hasGrants(ctx: EmulatorContext, ids: Set<number>): boolean {
  return ctx.find(IDENTITY.permissions, (g) => ids.has(Number(g.identity))).length > 0;
}
