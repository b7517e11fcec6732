/**
 * Computed outputs (besides the echoed inputs and `id`), declared once per
 * resource beside its inputs: schema.json, the docs, the provider's output
 * types and the SDK's output properties all derive from these declarations.
 */
export type OutputType = "string" | "boolean" | "integer";

export interface OutputDecl<T extends OutputType = OutputType> {
  type: T;
  description: string;
  /** Never shown in plain text: each door answers it as a secret (see secretFields.ts). */
  secret?: boolean;
  /** Recorded only in some states (an opt-in setting's outputs): schema.json does not require it. */
  optional?: boolean;
}

export type OutputDecls = Record<string, OutputDecl>;

export const output = <T extends OutputType>(type: T, description: string): OutputDecl<T> => ({ type, description });

export const optionalOutput = <T extends OutputType>(type: T, description: string) => ({ type, description, optional: true as const });

type ValueOf<T extends OutputType> = T extends "string" ? string : T extends "boolean" ? boolean : number;
type OptionalKeys<O extends OutputDecls> = { [K in keyof O]: O[K] extends { optional: true } ? K : never }[keyof O];

/** The values of declared outputs, as the provider returns them. */
export type OutputValues<O extends OutputDecls> = { [K in Exclude<keyof O, OptionalKeys<O>>]: ValueOf<O[K]["type"]> } & {
  [K in OptionalKeys<O>]?: ValueOf<O[K]["type"]>;
};

/** Machine-key outputs; hardware attaches to what they hold. */
export const machineKeyOutput = (whose: string) => output("string", `Machine key of ${whose}: what drives, NICs and devices attach to`);
export const statusOutputs = {
  status: output("string", "Live machine status at the last create, update or refresh"),
  running: output("boolean", "Whether the machine was running at the last create, update or refresh"),
};

/** Recorded outputs without the computed ones: the inputs they echo. */
export function withoutOutputs<T extends Record<string, unknown>, O extends OutputDecls>(outs: T, decls: O): Omit<T, keyof O> {
  return Object.fromEntries(Object.entries(outs).filter(([k]) => !(k in decls))) as Omit<T, keyof O>;
}
