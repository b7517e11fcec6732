import { perSession, type Session } from "../reconcile/session";
import type { CheckFailure } from "./checkInputs";
import { rowExists } from "./checkCopy";

/** An input holding the key of another row, which must exist when the preview runs. */
export interface Reference {
  field: string;
  table: string;
  /** "file", "vnet": for the message. */
  noun: string;
  /** The column the value names: the row key (default) or e.g. a UUID column. */
  column?: string;
}

/** References confirmed in this process, per platform (a lab's NICs share one vnet). */
const confirmedReferences = perSession(() => new Set<string>());

/**
 * Read-only look-ups at preview: a key of nothing (a mediaSource of no file,
 * a NIC's vnet of no vnet, a device's resource group of nothing) is refused in
 * `check`, naming the field, instead of failing half-way through an `up`.
 * Unknown values (rows this run creates), values unchanged since the last
 * run (`olds`) and rows this process already found are not looked up.
 */
export async function verifyReferences(
  api: Session,
  inputs: Record<string, unknown>,
  unknown: Set<string>,
  refs: Reference[],
  olds: Record<string, unknown> = {},
): Promise<CheckFailure[]> {
  const failures: CheckFailure[] = [];
  const confirmed = confirmedReferences(api);
  for (const ref of refs) {
    const value = inputs[ref.field];
    if (value === undefined || value === null || unknown.has(ref.field)) continue;
    if (olds[ref.field] !== undefined && String(olds[ref.field]) === String(value)) continue; // verified by the last run
    const column = ref.column ?? "$key";
    const id = JSON.stringify([ref.table, column, String(value)]);
    if (confirmed.has(id)) continue;
    // Vouched for by the run's copy of the table (200 drives from 200 files: one GET); a value it lacks is looked up afresh.
    if (await rowExists(api, ref.table, column, String(value))) {
      confirmed.add(id);
      continue;
    }
    failures.push({ property: ref.field, reason: `${ref.field}: no ${ref.noun} '${String(value)}' exists on the platform (${ref.table})` });
  }
  return failures;
}
