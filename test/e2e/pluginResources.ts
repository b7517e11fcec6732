// Programs against the resource plugin (pulumi-resource-vplatform) without a generated
// SDK: resources by type token, explicit providers by package name.
import * as pulumi from "@pulumi/pulumi";
import type { PlatformConnection } from "../../env/local-stack";

/** An explicit `vplatform` provider instance, e.g. one per platform site. */
export class Site extends pulumi.ProviderResource {
  constructor(name: string, connection: PlatformConnection, opts?: pulumi.ResourceOptions) {
    super("vplatform", name, { endpoint: connection.endpoint, apiKey: pulumi.secret(connection.apiKey), caCert: connection.caCert }, opts);
  }
}

/** Computed outputs of each resource (beside the echoed inputs), so programs can read them. */
const COMPUTED: Record<string, string[]> = {
  VirtualMachine: ["machineKey", "status", "running", "needRestart"],
  Device: ["uuid"],
  VmSnapshot: ["machineKey"],
  VmPower: ["machineKey", "status", "running"],
  ApiKey: ["secret", "created", "lastLoginStamp", "lastLoginIp"],
};

export type PluginResource = pulumi.CustomResource & Record<string, pulumi.Output<any>>;

/** `new vplatform.<type>(name, args, opts)` as a generated SDK would declare it. */
export function resource(type: string, name: string, args: Record<string, unknown>, opts?: pulumi.CustomResourceOptions): PluginResource {
  const props = { ...Object.fromEntries((COMPUTED[type] ?? []).map((k) => [k, undefined])), ...args };
  return new pulumi.CustomResource(`vplatform:index:${type}`, name, props, opts) as PluginResource;
}
