import * as pulumi from "@pulumi/pulumi";

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
