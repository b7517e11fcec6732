import { PlatformApi, quote } from "../reconcile/platform";
import { CheckFailure } from "./checkInputs";

/** An input holding the key of another row, which must exist when the preview runs. */
export interface Reference {
  field: string;
  table: string;
  /** "file", "vnet": for the message. */
  noun: string;
  /** The column the value names: the row key (default) or e.g. a UUID column. */
  column?: string;
}

/**
 * Read-only look-ups at preview: a key of nothing (a mediaSource of no file,
 * a NIC's vnet of no vnet, a device's resource group of nothing) is refused in
 * `check`, naming the field, instead of failing half-way through an `up`.
 * Unknown values (rows this run creates) are not looked up.
 */
export async function verifyReferences(api: PlatformApi, inputs: Record<string, unknown>, unknown: Set<string>, refs: Reference[]): Promise<CheckFailure[]> {
  const failures: CheckFailure[] = [];
  for (const ref of refs) {
    const value = inputs[ref.field];
    if (value === undefined || value === null || unknown.has(ref.field)) continue;
    const column = ref.column ?? "$key";
    const literal = column === "$key" && /^\d+$/.test(String(value)) ? String(value) : quote(String(value));
    const rows = await api.list(ref.table, { filter: `${column} eq ${literal}`, fields: "$key", limit: 1 });
    if (rows.length === 0) failures.push({ property: ref.field, reason: `${ref.field}: no ${ref.noun} '${String(value)}' exists on the platform (${ref.table})` });
  }
  return failures;
}
