import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime/rpc";

type Bag = Record<string, unknown>;

/**
 * The named properties of `bag` as the engine reads a secret: it records them encrypted and masks them
 * in plans and logs. The plugin takes plain values in (it accepts no secrets), so whatever it answers
 * that is secret is wrapped here, by the names the resource's declaration makes secret.
 */
export function asSecrets<T extends Bag | undefined>(bag: T, names: readonly string[]): T {
  if (!bag || !names.some((name) => bag[name] !== undefined)) return bag;
  const wrapped: Bag = { ...bag };
  for (const name of names) if (wrapped[name] !== undefined) wrapped[name] = { [specialSigKey]: specialSecretSig, value: wrapped[name] };
  return wrapped as T;
}

const isSecret = (value: unknown): boolean =>
  typeof value === "object" && value !== null && (value as Bag)[specialSigKey] === specialSecretSig;
const isObject = (value: unknown): value is Bag => typeof value === "object" && value !== null && !Array.isArray(value) && !isSecret(value);
const containsSecrets = (value: unknown): boolean =>
  isSecret(value) || (Array.isArray(value) ? value.some(containsSecrets) : isObject(value) && Object.values(value).some(containsSecrets));

/**
 * `value` with every secret replaced by its value: what the engine sends a plugin that accepts no secrets (its
 * removeSecrets). The plugin accepts secrets, as a plugin that constructs components must, and hands its resources
 * plain values as before.
 */
export function withoutSecrets<T>(value: T): T {
  if (isSecret(value)) return withoutSecrets((value as Bag).value) as T;
  if (Array.isArray(value)) return value.map(withoutSecrets) as T;
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutSecrets(v)])) as T;
  return value;
}

/**
 * `outs` with each property secret whose namesake in `ins` holds a secret (objects property by property): what the
 * engine does to the answers of a plugin that accepts no secrets (its annotateSecrets), so a secret given stays one.
 */
export function annotateSecrets<T extends Bag | undefined>(outs: T, ins: Bag | undefined): T {
  if (!outs || !ins) return outs;
  const annotated: Bag = { ...outs };
  for (const [key, inValue] of Object.entries(ins)) {
    if (!(key in annotated)) continue;
    const outValue = annotated[key];
    if (isObject(outValue) && isObject(inValue)) annotated[key] = annotateSecrets(outValue, inValue);
    else if (!isSecret(outValue) && containsSecrets(inValue)) annotated[key] = { [specialSigKey]: specialSecretSig, value: outValue };
  }
  return annotated as T;
}
