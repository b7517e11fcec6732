/**
 * The YAML environment runner (`vplatform/env`): read and validate an
 * environment file, then declare its resources inside a Pulumi program.
 */
export { loadEnvironment } from "./load-environment";
export { buildEnvironment, type BuiltEnvironment } from "./build-environment";
export { EnvironmentError, type EnvironmentProblem } from "./yaml-source";
export type { Environment } from "./environment-schema";
