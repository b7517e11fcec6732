/** How a group membership names its member: a user or a group, as `/v4/users/<key>` (as clients send it) or `users/<key>`. */
import { ownerReference } from "../../engine/ownerReference";
import { IDENTITY } from "../../model/names/identity";

const MEMBER = new RegExp(`^(?:/v4/)?(${IDENTITY.users}|${IDENTITY.groups})/(\\d+)$`);

export function parseMember(value: unknown): { table: typeof IDENTITY.users | typeof IDENTITY.groups; key: string } | undefined {
  if (typeof value !== "string") return undefined;
  const match = MEMBER.exec(value);
  return match ? { table: match[1] as typeof IDENTITY.users | typeof IDENTITY.groups, key: match[2] } : undefined;
}

/** The member as `users/<key>` or `groups/<key>`, whichever spelling it was given in. */
export function memberKey(value: unknown): string | undefined {
  const member = parseMember(value);
  return member ? ownerReference(member.table, member.key) : undefined;
}
