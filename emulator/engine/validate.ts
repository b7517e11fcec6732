/**
 * Field-level validation and coercion of request bodies against a table
 * definition. Pure: the only outside knowledge is `refExists`, used for `row`
 * fields marked `refMustExist`.
 */
import { ApiError, validationError } from "../model/errors";
import type { FieldDef, TableDef } from "../model/types";

const INT_RANGES: Record<string, [number, number]> = {
  uint8: [0, 255],
  uint16: [0, 65535],
  uint32: [0, 4294967295],
  uint64: [0, Number.MAX_SAFE_INTEGER],
  int8: [-128, 127],
  int16: [-32768, 32767],
  int32: [-2147483648, 2147483647],
  int64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  created: [0, Number.MAX_SAFE_INTEGER],
  modified: [0, Number.MAX_SAFE_INTEGER],
};

/** Default bound on text lengths (the spec leaves name lengths open: see README). */
export const DEFAULT_MAX_TEXT = 65536;

export type RefExists = (table: string, key: unknown) => boolean;

/** Boolean in either JSON or string form (`true`/`false`, also 1/0 as clients send). */
export function toBool(value: unknown): boolean | undefined {
  if (typeof value === "boolean") return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value === "string") {
    const lower = value.toLowerCase();
    if (lower === "true" || lower === "1") return true;
    if (lower === "false" || lower === "0") return false;
  }
  return undefined;
}

/** Number from a JSON number or a numeric string. */
export function toNum(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value === "string" && value.trim() !== "" && /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(value.trim())) {
    return Number(value);
  }
  return undefined;
}

function enumOptions(def: FieldDef): string {
  if (!def.enum) return "";
  return "options" in def.enum && typeof def.enum.options === "string" ? def.enum.options : Object.keys(def.enum).join(", ");
}

function enumAccepts(def: FieldDef, value: string): boolean {
  if (!def.enum) return true;
  if ("test" in def.enum && typeof def.enum.test === "function") return def.enum.test(value);
  return Object.hasOwn(def.enum, value);
}

/** Coerces one value to the field's type, or throws the field's validation error. */
export function coerceField(table: TableDef, name: string, def: FieldDef, value: unknown, refExists?: RefExists): unknown {
  const status = def.errorStatus ?? table.validationStatus ?? 400;
  const fail = (reason: string): never => {
    throw validationError(name, reason, status);
  };
  if (def.coerce) value = def.coerce(value);
  if (value === null) {
    if (def.type === "row" || def.type === "json") return null;
    if (def.required) fail("may not be null");
    return null;
  }
  switch (def.type) {
    case "bool":
    case "enabled": {
      const b = toBool(value);
      return b === undefined ? fail("must be a boolean") : b;
    }
    case "string":
    case "text": {
      if (typeof value !== "string" && typeof value !== "number") fail("must be a string");
      const text = String(value);
      if (text.length > (def.maxLength ?? DEFAULT_MAX_TEXT)) fail(`longer than ${def.maxLength ?? DEFAULT_MAX_TEXT} characters`);
      if (def.pattern && !def.pattern.test(text)) fail("fails validation test");
      if (!enumAccepts(def, text)) fail(`'${text}' is not a valid option (valid: ${enumOptions(def)})`);
      return text;
    }
    case "num": {
      const n = toNum(value);
      if (n === undefined) fail("must be a number");
      return checkBounds(def, n as number, fail);
    }
    case "json":
      if (typeof value !== "object") fail("must be a JSON object or array");
      return value;
    case "row": {
      const target = def.ref ?? "";
      const key = typeof value === "number" || typeof value === "string" ? value : fail("must be a row key");
      if (def.refMustExist && refExists && !refExists(target, key)) {
        throw new ApiError(def.refMustExist, `${name} '${String(key)}' not found in ${target}`);
      }
      const n = toNum(key);
      return n !== undefined && Number.isInteger(n) ? n : String(key);
    }
    case "rows":
      return fail("is read-only");
    default: {
      const range = INT_RANGES[def.type];
      const n = toNum(value);
      if (n === undefined || !Number.isInteger(n)) fail("must be an integer");
      if (range && ((n as number) < range[0] || (n as number) > range[1])) fail(`out of range for ${def.type}`);
      return checkBounds(def, n as number, fail);
    }
  }
}

function checkBounds(def: FieldDef, n: number, fail: (reason: string) => never): number {
  if ((def.min !== undefined && n < def.min) || (def.max !== undefined && n > def.max)) {
    fail(def.boundsMessage ?? `must be between ${def.min ?? "-∞"} and ${def.max ?? "∞"}`);
  }
  return n;
}

/**
 * Validates a POST (`create`) or PUT (`update`) body: rejects unknown,
 * read-only and (on update) create-only fields, coerces every value and, on
 * create, checks required fields. Returns only the coerced body fields
 * (defaults are applied separately by `applyDefaults`).
 */
export function validateBody(table: TableDef, body: unknown, mode: "create" | "update", refExists?: RefExists): Record<string, unknown> {
  if (body === undefined || body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new ApiError(400, "request body must be a JSON object", "err");
  }
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(body)) {
    const def = Object.hasOwn(table.fields, name) ? table.fields[name] : undefined;
    if (!def) {
      if (name === "$key" && mode === "update") continue; // clients echo the key back
      throw validationError(name, `unknown field of ${table.name}`);
    }
    if (def.readOnly || def.compute) throw validationError(name, "is read-only");
    if (mode === "update" && def.createOnly) throw validationError(name, "cannot be changed after creation");
    if (value === undefined) continue;
    out[name] = coerceField(table, name, def, value, refExists);
  }
  if (mode === "create") {
    for (const [name, def] of Object.entries(table.fields)) {
      if (def.required && (out[name] === undefined || out[name] === null || out[name] === "")) {
        throw validationError(name, "is required");
      }
    }
  }
  return out;
}
