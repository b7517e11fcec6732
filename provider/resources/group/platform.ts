/** A group's membership rows. */
import { type DeclaredMembers, liveMembers, type MembershipRow, memberPath, planMembers } from "../../plan/groupMembers";
import { quoteLiteral } from "../../client/query-string";
import { insertRow } from "../../reconcile/insertRow";
import { errorStatus, errorText, rowsWhere, str } from "../../reconcile/platform";
import type { Session } from "../../reconcile/session";
import { MEMBER_TABLE } from "../../schemas/tables";

/** The group's membership rows (read with the other groups' look-ups of a run). */
export async function membershipRows(api: Session, group: string): Promise<MembershipRow[]> {
  const rows = await rowsWhere(api, MEMBER_TABLE, "parent_group", group, "$key,member");
  return rows.map((r) => ({ key: str(r.$key), member: str(r.member) }));
}

/** The declared lists as the platform holds them: the read of a group whose members are managed. */
export async function readMembers(api: Session, group: string): Promise<ReturnType<typeof liveMembers>> {
  return liveMembers(await membershipRows(api, group));
}

/**
 * Makes the group's members the declared ones (undeclared lists are left alone): one read, then a row added per
 * missing member and deleted per member no longer declared. A member added twice is one member (409 "already a
 * member"); a lost answer is never a second row (the add looks for it before sending again).
 */
export async function syncMembers(api: Session, group: string, declared: DeclaredMembers, budgetMs: number): Promise<void> {
  const plan = planMembers(await membershipRows(api, group), declared);
  for (const key of plan.remove) await api.remove(MEMBER_TABLE, key);
  for (const member of plan.add) {
    const path = memberPath(member);
    const body = { parent_group: group, member: path };
    const what = `membership of ${path} in group ${group}`;
    try {
      await insertRow(
        api,
        {
          table: MEMBER_TABLE,
          body,
          what,
          lookFirst: false,
          findOurs: async () =>
            (
              await api.list(MEMBER_TABLE, {
                filter: `parent_group eq ${group} and member eq ${quoteLiteral(path)}`,
                fields: "$key",
                limit: 1,
              })
            )[0],
        },
        budgetMs,
      );
    } catch (err) {
      if (errorStatus(err) === 409 && /already a member/i.test(errorText(err))) continue;
      throw err;
    }
  }
}
