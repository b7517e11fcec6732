import * as fs from "node:fs";
import type { z } from "zod";
import { environmentSchema } from "./environment-schema";
import type { Environment } from "./environmentTypes.generated";
import { applyStackOverlay } from "./stack-overlay";
import type { SourceLocation } from "./environment-error";
import { parseYamlSource, validateYamlSource } from "./yaml-source";

/** A validated environment and where each of its values sits in the file. */
export interface LoadedEnvironment<E = Environment> {
  env: E;
  /** Where the value at `path` sits (spelt out rather than taken from YamlSource: the published declarations import no zod). */
  locate(path: readonly PropertyKey[]): SourceLocation;
}

/**
 * Reads and validates an environment file, with the overlay of `stack` applied
 * when the file has one; every problem is reported as file:line:col.
 */
export function loadEnvironmentSource(file: string, text = fs.readFileSync(file, "utf8"), stack?: string): LoadedEnvironment {
  return loadEnvironmentWith(environmentSchema, file, text, stack);
}

/** `loadEnvironmentSource` with the schema of a file of other kinds (environmentSchemaOf): a test's resource beside the real ones. */
export function loadEnvironmentWith<S extends z.ZodType>(
  schema: S,
  file: string,
  text: string,
  stack?: string,
): LoadedEnvironment<z.output<S>> {
  const source = parseYamlSource(text, file, (doc, problem) => applyStackOverlay(doc, stack, problem));
  return { env: validateYamlSource(source, schema), locate: source.locate };
}

/** The environment of `loadEnvironmentSource`, positions aside. */
export function loadEnvironment(file: string, text = fs.readFileSync(file, "utf8"), stack?: string): Environment {
  return loadEnvironmentSource(file, text, stack).env;
}
