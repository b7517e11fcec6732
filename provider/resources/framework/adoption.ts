import { jsonEqual } from "../../schemas/normalize";
import type { Row } from "../../reconcile/platform";
import { PartialCreateError } from "./defineProvider";

export interface AdoptionLookups<T> {
  byKey(key: string): Promise<T | undefined>;
  byName(): Promise<T | undefined>;
}

/**
 * The existing object `adopt` points at: a row key names it exactly, `true`
 * finds it by the declared name. Missing is an error: adopting means the
 * program expects the object to exist.
 */
export async function findAdoptable<T>(what: string, adopt: true | string, find: AdoptionLookups<T>): Promise<T> {
  const found = adopt === true ? await find.byName() : await find.byKey(adopt);
  if (found === undefined) throw new Error(`vplatform: adopt: no ${what}${adopt === true ? "" : ` with key '${adopt}'`} exists`);
  return found;
}

/**
 * Adoption takes over an existing object only when it is what the program
 * declares; otherwise the error lists every differing field.
 */
export function assertAdoptable(what: string, declared: Row, live: Row): void {
  const differing = Object.keys(live).filter((k) => declared[k] !== undefined && !jsonEqual(live[k], declared[k]));
  if (differing.length === 0) return;
  const list = differing.map((k) => `${k} (declared ${JSON.stringify(declared[k])}, actual ${JSON.stringify(live[k])})`);
  throw new Error(
    `vplatform: cannot adopt ${what}: it exists but differs from the declaration in ${list.join(", ")}. ` +
      `Change the declaration to match, or fix the object on the platform.`,
  );
}

/**
 * A row an earlier, interrupted create made was found instead of created. If
 * it is what the program declares it is simply ours; if not, it is recorded as
 * partially created with its key, so the next `up` updates it to the
 * declaration (never a second row, never an orphan).
 */
export function assertRecoveredMatches(what: string, declared: Row, live: Row, key: string, outs: Row): void {
  const differing = Object.keys(live).filter((k) => declared[k] !== undefined && !jsonEqual(live[k], declared[k]));
  if (differing.length === 0) return;
  throw new PartialCreateError(
    `vplatform: ${what}: a row an earlier, interrupted create made (key ${key}) was found but differs in ${differing.join(", ")}`,
    key,
    // Recorded as it is, so the next update's diff sends what differs.
    { ...outs, ...live },
    "it is recorded as partially created; the next `pulumi up` updates it to the declaration",
  );
}
