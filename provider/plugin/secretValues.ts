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
