/**
 * A group's members as declared against its membership rows on the platform: which rows to add and which to
 * delete so the group holds exactly the declared users and nested groups. Pure; a list left out is not managed.
 */

/** The group's member lists, and the table each one's members are rows of. */
import { GROUP_TABLE, USER_TABLE } from "../schemas/tables";
export const MEMBER_LISTS = { users: USER_TABLE, memberGroups: GROUP_TABLE } as const;
type MemberList = keyof typeof MEMBER_LISTS;
export type MemberTable = (typeof MEMBER_LISTS)[MemberList];

/** A membership row as the platform answers it: its key and `member` (`users/5`, or `/v4/users/5` as some clients send). */
export interface MembershipRow {
  key: string;
  member: string;
}

export interface Member {
  table: MemberTable;
  key: string;
}

const MEMBER_PATH = new RegExp(`^(?:/v4/)?(${USER_TABLE}|${GROUP_TABLE})/(\\d+)$`);

/** What a membership row names, or undefined for a value that is no user's or group's path. */
export function parseMember(value: unknown): Member | undefined {
  const match = typeof value === "string" ? MEMBER_PATH.exec(value) : null;
  return match ? { table: match[1] as MemberTable, key: match[2] } : undefined;
}

/** The path a new membership row names its member by (as the maker's Terraform provider writes it). */
export const memberPath = (m: Member): string => `${m.table}/${m.key}`;

export type DeclaredMembers = Partial<Record<MemberList, string[]>>;

const byKey = (a: string, b: string) => Number(a) - Number(b);
const lists = Object.entries(MEMBER_LISTS) as [MemberList, MemberTable][];

/** The members the rows hold, per list, sorted by key, each once (what a read reports). */
export function liveMembers(rows: readonly MembershipRow[]): Record<MemberList, string[]> {
  const members = rows.flatMap((r) => parseMember(r.member) ?? []);
  const of = (table: MemberTable) => [...new Set(members.filter((m) => m.table === table).map((m) => m.key))].sort(byKey);
  return Object.fromEntries(lists.map(([list, table]) => [list, of(table)])) as Record<MemberList, string[]>;
}

export interface MembershipPlan {
  add: Member[];
  /** Keys of membership rows to delete: members no longer declared, and a second row of one member. */
  remove: string[];
}

/** The rows to add and delete so that every declared list is exactly its members; undeclared lists are left alone. */
export function planMembers(rows: readonly MembershipRow[], declared: DeclaredMembers): MembershipPlan {
  const plan: MembershipPlan = { add: [], remove: [] };
  for (const [list, table] of lists) {
    const wanted = declared[list];
    if (wanted === undefined) continue;
    const seen = new Set<string>();
    for (const row of rows) {
      const m = parseMember(row.member);
      if (m?.table !== table) continue;
      if (wanted.includes(m.key) && !seen.has(m.key)) seen.add(m.key);
      else plan.remove.push(row.key);
    }
    for (const key of wanted) if (!seen.has(key)) plan.add.push({ table, key });
  }
  return plan;
}
