/**
 * The YAML environment runner (`vplatform/env`): read and validate an
 * environment file, then declare its resources inside a Pulumi program.
 */
export { loadEnvironment } from "./load-environment";
export { buildEnvironment, type BuiltEnvironment } from "./build-environment";
export { EnvironmentError, type EnvironmentProblem, type SourceLocation } from "./environment-error";
export type { Environment } from "./environmentTypes.generated";
