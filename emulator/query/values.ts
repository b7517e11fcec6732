/**
 * How two values compare, shared by filter comparisons and sorting.
 *
 * Rules (the platform stores keys as numbers or numeric strings, booleans as
 * JSON booleans or the strings 'true'/'false'):
 * - null and undefined equal each other and nothing else;
 * - if either side is a boolean, the other side must be a boolean or the text
 *   'true'/'false' (any case); false < true;
 * - if both sides are numbers or numeric strings, they compare numerically;
 * - otherwise strings (and numbers as text) compare by UTF-16 code units;
 * - anything else (arrays, objects, mixed booleans) is incomparable.
 */

const NUMERIC_TEXT = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;

export function toNumber(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value === "string" && NUMERIC_TEXT.test(value)) return Number(value);
  return undefined;
}

export function toBoolean(value: unknown): boolean | undefined {
  if (typeof value === "boolean") return value;
  if (typeof value === "string") {
    const lower = value.toLowerCase();
    if (lower === "true") return true;
    if (lower === "false") return false;
  }
  return undefined;
}

/** Negative, zero or positive like a comparator; undefined when incomparable. */
export function compareValues(a: unknown, b: unknown): number | undefined {
  if (a == null || b == null) return a == null && b == null ? 0 : undefined;
  if (typeof a === "boolean" || typeof b === "boolean") {
    const boolA = toBoolean(a);
    const boolB = toBoolean(b);
    if (boolA === undefined || boolB === undefined) return undefined;
    return Number(boolA) - Number(boolB);
  }
  const numA = toNumber(a);
  const numB = toNumber(b);
  if (numA !== undefined && numB !== undefined) return numA < numB ? -1 : numA > numB ? 1 : 0;
  if (!isText(a) || !isText(b)) return undefined;
  const textA = String(a);
  const textB = String(b);
  return textA < textB ? -1 : textA > textB ? 1 : 0;
}

/** Text form of a scalar for the text operators (bw, ew, cs, ct, like, rx). */
export function toText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
  return undefined;
}

function isText(value: unknown): value is string | number {
  return typeof value === "string" || typeof value === "number";
}
