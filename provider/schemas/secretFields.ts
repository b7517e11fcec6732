/**
 * Which fields of a resource are never shown in plain text, derived from its
 * declaration: inputs whose metadata says `secret` (a password, a webhook's
 * credential) and outputs declared `secret` (an API key's secret). Each door
 * marks exactly these: the SDK as secret inputs and additionalSecretOutputs,
 * the plugin by answering them wrapped as secrets, schema.json as `secret`.
 */
import type { z } from "zod";
import { fieldMeta, shapeOf } from "./common";
import type { OutputDecls } from "./outputs";

/** The inputs marked secret. */
export function secretInputs(schema: z.ZodType): string[] {
  return Object.entries(shapeOf(schema)).flatMap(([name, field]) => (fieldMeta(field)?.secret ? [name] : []));
}

/** Every property that must be secret in state: secret inputs (echoed as outputs) and secret outputs. */
export function secretProperties(schema: z.ZodType, outputs: OutputDecls = {}): string[] {
  return [...secretInputs(schema), ...Object.entries(outputs).flatMap(([name, decl]) => (decl.secret ? [name] : []))];
}
