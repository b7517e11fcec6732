import type { z } from "zod";

/** Top-level input names of an object schema (what diffs compare). */
export function schemaFields(schema: z.ZodType): string[] {
  const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape;
  return shape ? Object.keys(shape) : [];
}
