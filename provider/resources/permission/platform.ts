/**
 * What a permission needs of the platform: the grantee's identity (a grant names the user's or
 * group's `identity`, not its key).
 */
import { filterLiteral, quoteLiteral } from "../../client/query-string";
import { str } from "../../reconcile/platform";
import { identityOf } from "../../reconcile/identities";
import type { Session } from "../../reconcile/session";
import type { PermissionInputs } from "./schema";
import { GROUP_TABLE, USER_TABLE } from "../../schemas/tables";

/** The grantee's table and key. */
export const granteeOf = (p: Pick<PermissionInputs, "user" | "group">): { table: string; key: string; noun: string } =>
  p.user !== undefined ? { table: USER_TABLE, key: p.user, noun: "user" } : { table: GROUP_TABLE, key: String(p.group), noun: "group" };

/** The grantee's `identity`, what a grant names (read once per session: a class's grants to one user read it once). */
export function granteeIdentity(api: Session, p: Pick<PermissionInputs, "user" | "group">): Promise<number> {
  const grantee = granteeOf(p);
  return identityOf(api, grantee.table, grantee.key, grantee.noun);
}

/** The filter finding the one grant of an identity on a table's row (row 0: the whole table). */
export const grantFilter = (identity: number, p: Pick<PermissionInputs, "table" | "row">): string =>
  `identity eq ${identity} and table eq ${quoteLiteral(p.table)} and row eq ${filterLiteral(p.row ?? "0")}`;

/** The grant a live row is, in messages: "grant of vms/12 to user 5". */
export const describeGrant = (p: Pick<PermissionInputs, "user" | "group" | "table" | "row">): string => {
  const grantee = granteeOf(p);
  return `grant of ${p.table}${p.row === undefined ? "" : `/${p.row}`} to ${grantee.noun} ${str(grantee.key)}`;
};
