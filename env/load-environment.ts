import * as fs from "fs";
import { environmentSchema, type Environment } from "./environment-schema";
import { parseYamlSource, validateYamlSource } from "./yaml-source";

/** Reads and validates an environment file; every problem is reported as file:line:col. */
export function loadEnvironment(file: string, text = fs.readFileSync(file, "utf8")): Environment {
  return validateYamlSource(parseYamlSource(text, file), environmentSchema);
}
