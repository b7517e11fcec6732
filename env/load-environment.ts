import * as fs from "node:fs";
import { environmentSchema } from "./environment-schema";
import type { Environment } from "./environmentTypes.generated";
import { applyStackOverlay } from "./stack-overlay";
import { parseYamlSource, validateYamlSource } from "./yaml-source";

/**
 * Reads and validates an environment file, with the overlay of `stack` applied
 * when the file has one; every problem is reported as file:line:col.
 */
export function loadEnvironment(file: string, text = fs.readFileSync(file, "utf8"), stack?: string): Environment {
  const source = parseYamlSource(text, file, (doc, problem) => applyStackOverlay(doc, stack, problem));
  return validateYamlSource(source, environmentSchema);
}
