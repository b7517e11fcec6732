import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";

/**
 * The provider object Pulumi serializes into every resource's `__provider`.
 * Each method loads the real implementation from the installed package at
 * call time, so `__provider` stays small, stable (code changes do not show as
 * diffs) and free of credentials; destroy and refresh run the installed code.
 * Only `file` (and `impl`) are captured by the closures.
 */
export function shimProvider(file: string): pulumi.dynamic.ResourceProvider {
  const impl = (): pulumi.dynamic.ResourceProvider => require(`vplatform/dist/provider/resources/${file}.js`).provider;
  return {
    configure: (req) => impl().configure!(req),
    check: (olds, news) => impl().check!(olds, news),
    diff: (id, olds, news) => impl().diff!(id, olds, news),
    create: (inputs) => impl().create(inputs),
    read: (id, props) => impl().read!(id, props),
    update: (id, olds, news) => impl().update!(id, olds, news),
    delete: (id, props) => impl().delete!(id, props),
  };
}

/** Every output name must be in the props (undefined = computed) so the SDK exposes it. */
export function seed(schema: z.ZodType, args: object, computed: string[] = []): Record<string, unknown> {
  const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape ?? {};
  const names = [...Object.keys(shape), ...computed];
  return { ...Object.fromEntries(names.map((n) => [n, undefined])), ...args };
}
