import { perSession, type Session } from "../../reconcile/session";
import { fieldMeta, type RowReference, type Shape } from "../../schemas/common";
import type { CheckFailure } from "./checkInputs";
import { rowExists } from "./checkListing";

/** An input holding the key of another row (or a list of them), which must exist when the preview runs. */
export interface Reference extends RowReference {
  field: string;
}

/** The references a resource's inputs declare (`references` in a field's metadata): the one list the check reads. */
export const referencesOf = (shape: Shape): Reference[] =>
  Object.entries(shape).flatMap(([field, schema]) => {
    const ref = fieldMeta(schema)?.references;
    return ref ? [{ field, ...ref }] : [];
  });

/** References confirmed in this process, per platform (a lab's NICs share one vnet). */
const confirmedReferences = perSession(() => new Set<string>());

/**
 * Read-only look-ups at preview: a key of nothing (a mediaSource of no file, a NIC's vnet of no vnet, an API key's
 * user, a trigger's task, a schedule's task of nothing) is refused in `check`, naming the field, instead of failing
 * half-way through an `up`. Unknown values (rows this run creates), values unchanged since the last run (`olds`),
 * rows this session created and rows it already found are not looked up.
 */
export async function verifyReferences(
  api: Session,
  inputs: Record<string, unknown>,
  unknown: Set<string>,
  refs: readonly Reference[],
  olds: Record<string, unknown> = {},
): Promise<CheckFailure[]> {
  const failures: CheckFailure[] = [];
  const confirmed = confirmedReferences(api);
  for (const ref of refs) {
    const value = inputs[ref.field];
    if (value === undefined || value === null || unknown.has(ref.field)) continue;
    const before = new Set((Array.isArray(olds[ref.field]) ? (olds[ref.field] as unknown[]) : [olds[ref.field]]).map(String));
    const column = ref.column ?? "$key";
    for (const entry of (Array.isArray(value) ? value : [value]).map(String)) {
      if (before.has(entry)) continue; // verified by the last run
      const id = JSON.stringify([ref.table, column, entry]);
      if (confirmed.has(id) || (column === "$key" && api.created(ref.table, entry))) continue;
      // Vouched for by the run's listing of the table (200 drives from 200 files: one GET); a value it lacks is looked up afresh.
      if (await rowExists(api, ref.table, column, entry)) {
        confirmed.add(id);
        continue;
      }
      failures.push({
        property: ref.field,
        reason: `${ref.field}: no ${ref.noun} '${entry}' exists on the platform (${ref.table}): give the key of an existing ${ref.noun}`,
      });
    }
  }
  return failures;
}
