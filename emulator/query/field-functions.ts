import { createHash } from "node:crypto";
import { queryError } from "./errors";
import { toNumber } from "./values";

/**
 * Field functions of the `fields` option, applied to the value the server
 * resolved for the function's path. Null and undefined stay null except where
 * noted. The semantics are the emulator's choice (the spec names the
 * functions only); see README.md.
 */
export const FIELD_FUNCTIONS = {
  collapse,
  datetime,
  upper: (value: unknown) => mapText(value, (text) => text.toUpperCase()),
  lower: (value: unknown) => mapText(value, (text) => text.toLowerCase()),
  count,
  diskspace,
  display,
  hex,
  sha1,
  sum: (value: unknown) => numbersOf(value).reduce((total, n) => total + n, 0),
  avg: (value: unknown) => {
    const numbers = numbersOf(value);
    return numbers.length ? numbers.reduce((total, n) => total + n, 0) / numbers.length : null;
  },
  min: (value: unknown) => extreme(value, (a, b) => a < b),
  max: (value: unknown) => extreme(value, (a, b) => a > b),
  flatten,
} as const;

export type FieldFunctionName = keyof typeof FIELD_FUNCTIONS;

export function isFieldFunction(name: string): name is FieldFunctionName {
  return Object.hasOwn(FIELD_FUNCTIONS, name);
}

/** What a function may need besides the value. */
export interface FieldFunctionOptions {
  /** Value → label list of the field in the table schema (`$table` `.list`), used by `display`. */
  labels?: Readonly<Record<string, string>>;
}

/** Applies a field function by (case-insensitive) name; unknown names throw QueryError. */
export function applyFieldFunction(fn: string, value: unknown, options: FieldFunctionOptions = {}): unknown {
  const name = fn.toLowerCase();
  if (!isFieldFunction(name)) throw queryError("fields", `unknown function '${fn}'`);
  return FIELD_FUNCTIONS[name](value, options);
}

/** Rows (or scalars) → one comma list: a row contributes its `$key`, else its values. */
function collapse(value: unknown): string | null {
  if (value == null) return null;
  const parts: string[] = [];
  for (const item of asList(value)) {
    if (item == null) continue;
    if (typeof item !== "object") parts.push(String(item));
    else if ("$key" in item) parts.push(String((item as { $key: unknown }).$key));
    else parts.push(...Object.values(item).map((part) => (typeof part === "object" ? JSON.stringify(part) : String(part))));
  }
  return parts.join(",");
}

/**
 * Unix time → ISO 8601 UTC without fractions ("2024-05-01T12:00:00Z").
 * Platform timestamps are seconds, but some tables keep ms or µs: values
 * beyond the year 5138 in seconds are taken as ms, beyond it in ms as µs.
 */
function datetime(value: unknown): unknown {
  const number = toNumber(value);
  if (number === undefined) return value ?? null;
  const milliseconds = Math.abs(number) >= 1e14 ? number / 1000 : Math.abs(number) >= 1e11 ? number : number * 1000;
  const date = new Date(milliseconds);
  return Number.isNaN(date.getTime()) ? null : date.toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** Arrays → length, objects → number of keys, null → 0, any other value → 1. */
function count(value: unknown): number {
  if (value == null) return 0;
  if (Array.isArray(value)) return value.length;
  if (typeof value === "object") return Object.keys(value).length;
  return 1;
}

const DISK_UNITS = ["B", "KB", "MB", "GB", "TB", "PB", "EB"];

/** Bytes → binary-unit text with up to two decimals: 21474836480 → "20 GB", 1536 → "1.5 KB". */
function diskspace(value: unknown): unknown {
  const bytes = toNumber(value);
  if (bytes === undefined) return value ?? null;
  let amount = Math.abs(bytes);
  let unit = 0;
  while (amount >= 1024 && unit < DISK_UNITS.length - 1) {
    amount /= 1024;
    unit++;
  }
  const rounded = Number(amount.toFixed(2));
  return `${bytes < 0 ? "-" : ""}${rounded} ${DISK_UNITS[unit]}`;
}

/**
 * A row's display text (`$display`, else `name`, else `$key`); a scalar's
 * label from the field's schema list when given, else the scalar as text.
 */
function display(value: unknown, options: FieldFunctionOptions): string | null {
  if (value == null) return null;
  if (typeof value !== "object") return options.labels?.[String(value)] ?? String(value);
  const row = value as Record<string, unknown>;
  const text = row.$display ?? row.name ?? row.$key;
  return text == null ? null : String(text);
}

/** Integers → lower-case hex digits; other text → hex of its UTF-8 bytes. */
function hex(value: unknown): string | null {
  if (value == null) return null;
  const number = toNumber(value);
  if (number !== undefined && Number.isInteger(number)) {
    return Number.isSafeInteger(number) ? number.toString(16) : BigInt(String(value)).toString(16);
  }
  return Buffer.from(String(value), "utf8").toString("hex");
}

/** SHA-1 hex digest of the value's text (objects as JSON). */
function sha1(value: unknown): string | null {
  if (value == null) return null;
  const text = typeof value === "object" ? JSON.stringify(value) : String(value);
  return createHash("sha1").update(text, "utf8").digest("hex");
}

/** One level of nesting removed; row shapes are merged by the server. */
function flatten(value: unknown): unknown {
  return Array.isArray(value) ? value.flat() : value;
}

function mapText(value: unknown, map: (text: string) => string): string | null {
  return value == null ? null : map(typeof value === "object" ? JSON.stringify(value) : String(value));
}

function asList(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [value];
}

/** The numeric members of a list (numeric strings count); others are skipped. */
function numbersOf(value: unknown): number[] {
  const numbers: number[] = [];
  for (const item of asList(value)) {
    const number = toNumber(item);
    if (number !== undefined) numbers.push(number);
  }
  return numbers;
}

function extreme(value: unknown, better: (a: number, b: number) => boolean): number | null {
  let best: number | null = null;
  for (const number of numbersOf(value)) if (best === null || better(number, best)) best = number;
  return best;
}
