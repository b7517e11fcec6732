/**
 * Value normalization, so that what the API returns (true/"true"/1, numeric
 * strings, keys as numbers, versioned machine types, upper-case MACs) compares
 * equal to what a program declares. Pure; used by the schema mapping and diffs.
 */

import { unknownValue } from "@pulumi/pulumi/runtime/rpc";

/** What an unknown value (an output not yet computed) looks like during preview: Pulumi's own sentinel. */
export const PREVIEW_UNKNOWN: string = unknownValue;

export function containsPreviewUnknown(value: unknown): boolean {
  if (value === PREVIEW_UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsPreviewUnknown);
  if (value !== null && typeof value === "object") return Object.values(value).some(containsPreviewUnknown);
  return false;
}

const TRUE_VALUES: ReadonlySet<unknown> = new Set<unknown>([true, "true", "TRUE", "True", 1, "1", "yes", "on"]);
const FALSE_VALUES: ReadonlySet<unknown> = new Set<unknown>([false, "false", "FALSE", "False", 0, "0", "no", "off", ""]);

/** The API writes booleans as true, "true" or 1; anything unrecognized is returned unchanged. */
export function toBoolean(value: unknown): unknown {
  if (TRUE_VALUES.has(value)) return true;
  if (FALSE_VALUES.has(value)) return false;
  return value;
}

/** Numbers arrive as numbers or numeric strings ("4", "1024"); anything else is returned unchanged. */
export function toNumber(value: unknown): unknown {
  if (typeof value === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  return value;
}

/** Row keys are digits; inputs and outputs hold them as strings. */
export function toKey(value: unknown): unknown {
  if (typeof value === "number" && Number.isInteger(value)) return String(value);
  if (typeof value === "string") return value.trim();
  return value;
}

export function normalizeMac(value: unknown): unknown {
  return typeof value === "string" ? value.trim().toLowerCase() : value;
}

/** `q35`/`pc-q35-<version>` → "q35", `pc`/`pc-i440fx-<version>` → "pc"; other strings unchanged. */
export function machineTypeFamily(machineType: string): string {
  if (machineType === "q35" || machineType.startsWith("pc-q35-")) return "q35";
  if (machineType === "pc" || machineType.startsWith("pc-i440fx-")) return "pc";
  return machineType;
}

/**
 * `q35` ≡ any `pc-q35-<version>` and `pc` ≡ any `pc-i440fx-<version>` (the
 * platform reports the versioned form of a generic request); two explicit
 * versions must match exactly.
 */
export function sameMachineType(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "string" || typeof b !== "string") return false;
  const family = machineTypeFamily(a);
  if (family !== machineTypeFamily(b)) return false;
  return a === family || b === family;
}

/** Structural equality of JSON values; object key order does not matter. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]));
  }
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
