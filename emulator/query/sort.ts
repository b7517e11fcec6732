import { queryError } from "./errors";
import { FIELD_SEGMENT } from "./syntax";
import { compareValues } from "./values";

export interface SortKey {
  field: string[];
  descending: boolean;
}

/**
 * Parses a `sort` option: comma-separated fields, each optionally prefixed by
 * `+` (ascending, the default) or `-` (descending); `#` follows joins. A `+`
 * that reached the server undecoded becomes a space, which is tolerated.
 */
export function parseSort(text: string): SortKey[] {
  if (text.trim() === "") return [];
  const keys: SortKey[] = [];
  let offset = 0;
  for (const part of text.split(",")) {
    const position = offset + (part.length - part.trimStart().length);
    offset += part.length + 1;
    let name = part.trim();
    const descending = name.startsWith("-");
    if (descending || name.startsWith("+")) name = name.slice(1).trimStart();
    const field = name.split("#");
    if (!field.every((segment) => FIELD_SEGMENT.test(segment))) {
      throw queryError("sort", name ? `invalid field '${name}'` : "empty sort field", position);
    }
    keys.push({ field, descending });
  }
  return keys;
}

/**
 * Comparator of two rows by sort keys (first key first). Values order as in
 * values.ts (numeric strings numerically); nulls come first ascending (last
 * descending); values of different kinds order null < boolean < number <
 * text < other. Ties return 0, so a stable sort (Array.prototype.sort)
 * keeps the table order.
 */
export function compareBy(keys: SortKey[], resolveA: (path: string[]) => unknown, resolveB: (path: string[]) => unknown): number {
  for (const key of keys) {
    const order = compareForSort(resolveA(key.field), resolveB(key.field));
    if (order !== 0) return key.descending ? -order : order;
  }
  return 0;
}

/**
 * Sorts rows stably by keys, resolving each row's sort values once
 * (decorate-sort-undecorate) instead of once per comparison.
 */
export function sortRows<Row>(rows: readonly Row[], keys: SortKey[], resolve: (row: Row, path: string[]) => unknown): Row[] {
  if (keys.length === 0) return [...rows];
  const decorated = rows.map((row) => ({ row, values: keys.map((key) => resolve(row, key.field)) }));
  decorated.sort((a, b) => {
    for (let index = 0; index < keys.length; index++) {
      const order = compareForSort(a.values[index], b.values[index]);
      if (order !== 0) return keys[index].descending ? -order : order;
    }
    return 0;
  });
  return decorated.map((entry) => entry.row);
}

function compareForSort(a: unknown, b: unknown): number {
  const order = compareValues(a, b);
  if (order !== undefined) return Math.sign(order);
  return kindRank(a) - kindRank(b);
}

function kindRank(value: unknown): number {
  if (value == null) return 0;
  switch (typeof value) {
    case "boolean":
      return 1;
    case "number":
    case "bigint":
      return 2;
    case "string":
      return 3;
    default:
      return 4;
  }
}
