/**
 * The `identity` of a user or a group: what a grant names (users and groups share one identity space). Neither's
 * creation answer carries it, so it is read, once per session and row, and the read joins those of the other rows of
 * its table asked meanwhile (a class's users, made together, are one GET).
 */
import { perSession, type Session } from "./session";

const identities = perSession(() => new Map<string, Promise<number>>());

/** The identity of row `key` of `table` (`users` or `groups`); `noun` names it in the error when the row is gone. */
export function identityOf(api: Session, table: string, key: string, noun: string): Promise<number> {
  const id = `${table}/${key}`;
  const known = identities(api);
  let identity = known.get(id);
  if (!identity) {
    identity = api.get(table, key, "identity").then((row) => {
      if (!row) throw new Error(`vplatform: ${noun}: no ${noun} with key '${key}' exists`);
      return Number(row.identity);
    });
    identity.catch(() => known.delete(id)); // a failed read is tried again
    known.set(id, identity);
  }
  return identity;
}
