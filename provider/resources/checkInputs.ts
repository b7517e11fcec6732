import type { z } from "zod";
import { containsPreviewUnknown } from "../schemas/normalize";

export interface CheckFailure {
  property: string;
  reason: string;
}

export type Checked<T> = { ok: true; inputs: T; unknown: Set<string> } | { ok: false; failures: CheckFailure[] };

/**
 * Validates and normalizes with the resource's zod schema. Fields whose value
 * is (or contains) an unknown are left out of validation and passed through as
 * unknown, so a preview with not-yet-created dependencies still checks the rest.
 */
export function checkInputs<S extends z.ZodType>(schema: S, news: Record<string, unknown>): Checked<z.output<S>> {
  const unknown = new Set<string>();
  const known: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(news)) {
    if (field === "__provider") continue;
    if (containsPreviewUnknown(value)) unknown.add(field);
    else known[field] = value;
  }
  const parsed = schemaWithOptional(schema, unknown).safeParse(known);
  if (parsed.success) {
    const inputs = { ...(parsed.data as Record<string, unknown>) };
    for (const field of unknown) inputs[field] = news[field];
    return { ok: true, inputs: inputs as z.output<S>, unknown };
  }
  const failures = parsed.error.issues
    .filter((issue) => !unknown.has(String(issue.path[0])))
    .map((issue) => ({ property: issue.path.map(String).join(".") || "(inputs)", reason: issue.message }));
  if (failures.length === 0) {
    // Only unknown fields failed (e.g. a required field that is unknown): fine during preview.
    return { ok: true, inputs: { ...known, ...pick(news, unknown) } as z.output<S>, unknown };
  }
  return { ok: false, failures };
}

/** The schema with the unknown fields optional, so their absence is no failure (when zod allows it). */
function schemaWithOptional(schema: z.ZodType, fields: Set<string>): z.ZodType {
  const partial = (schema as unknown as { partial?: (mask: Record<string, true>) => z.ZodType }).partial;
  if (fields.size === 0 || typeof partial !== "function") return schema;
  try {
    return partial.call(schema, Object.fromEntries([...fields].map((f) => [f, true as const])));
  } catch {
    return schema; // objects with refinements refuse .partial(); failures on unknown fields are filtered below
  }
}

function pick(obj: Record<string, unknown>, keys: Set<string>): Record<string, unknown> {
  return Object.fromEntries([...keys].map((k) => [k, obj[k]]));
}

/** Outputs must be plain JSON: no undefined, Date, secrets or class instances. */
export function plainJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
