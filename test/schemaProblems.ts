import type { z } from "zod";

/** "path: message" per issue of `input` against `schema`, as `check` reports them: what the schema tests compare. */
export function problems(schema: z.ZodType, input: unknown): string[] {
  const r = schema.safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
}
