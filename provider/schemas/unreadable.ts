/**
 * What the platform never answers, derived from the declarations: write-only
 * inputs (a password, a webhook's credential) and outputs answered only at
 * creation (an API key's secret). An import leaves them unknown and says so,
 * in one warning per field that names it and says what to do.
 */
import { fieldMeta, type Shape } from "./common";
import type { OutputDecl } from "./outputs";

/** An output the platform answers only when it creates the row; `regain` says how to get a value again. */
export type OnceOutput = OutputDecl & { onlyAtCreation?: { regain: string } };

export function importWarnings(shape: Shape, outputs: Record<string, OnceOutput> = {}): string[] {
  const inputs = Object.entries(shape)
    .filter(([, schema]) => fieldMeta(schema)?.writeOnly === true)
    .map(
      ([field]) =>
        `${field} is write-only: the platform never answers it, so the import leaves it unknown; declare it (the next update sends it)`,
    );
  const once = Object.entries(outputs).flatMap(([name, decl]) =>
    decl.onlyAtCreation
      ? [`${name} is answered only when the row is created, so the import leaves it unknown; ${decl.onlyAtCreation.regain}`]
      : [],
  );
  return [...inputs, ...once];
}
