// vp.Lab for every language: the plugin's component vplatform:index:Lab (schema.json, isComponent), whose Construct
// the plugin answers with constructLab (its entry point, plugin/main.ts, hands it in). The lab is vp.Lab's own
// declaration (declareLab in sdk/lab.ts); its children are of the plugin's types (vplatform:index:<token>), which the
// engine registers and the plugin serves as it does a Pulumi YAML program's.
import * as pulumi from "@pulumi/pulumi";
import type * as provider from "@pulumi/pulumi/provider";
import { RESOURCES, RESOURCE_LIST, type ResourceToken } from "../provider/resources";
import { type LabArgs, type LabClasses, type LabCopyOutputs, declareLab } from "./lab";
import { seed, withSecretOutputs } from "./providerShim";
import { VNET_TABLE } from "../provider/schemas/tables";

export const LAB_COMPONENT = "vplatform:index:Lab";

/** A class of the plugin's type for `token`: every output the registry declares is on it, the secret ones secret. */
function pluginClass(token: ResourceToken) {
  const { inputs, outputs } = RESOURCES[token];
  return class extends pulumi.CustomResource {
    constructor(name: string, args: object, opts?: pulumi.CustomResourceOptions) {
      super(
        `vplatform:index:${token}`,
        name,
        seed(inputs, args as Record<string, unknown>, outputs),
        withSecretOutputs(inputs, outputs, opts),
      );
    }
  };
}

/**
 * The lab's classes in the plugin: one of each of the registry's types, the vnets read by the plugin's own look-up through the
 * lab's provider. Cast once to the SDK's classes: both are the registry's declarations (inputs, outputs, token).
 */
const PLUGIN_CLASSES = {
  ...Object.fromEntries(RESOURCE_LIST.map((r) => [r.token, pluginClass(r.token as ResourceToken)])),
  vnetRows: (opts: pulumi.ComponentResourceOptions | undefined) => {
    const providers = opts?.providers;
    const provider = providers && !Array.isArray(providers) ? providers.vplatform : undefined;
    return pulumi.runtime
      .invokeOutput<{ rows: { name: string; network?: string }[] }>(
        "vplatform:index:getTableRows",
        { table: VNET_TABLE, fields: ["name", "network"], limit: 0 },
        { provider },
      )
      .apply(({ rows }) => rows);
  },
} as unknown as LabClasses;

/** vp.Lab's class, constructed by the plugin. */
class LabComponent extends pulumi.ComponentResource {
  readonly copies: Record<string, LabCopyOutputs>;

  constructor(name: string, args: LabArgs, opts: pulumi.ComponentResourceOptions) {
    super(LAB_COMPONENT, name, {}, opts);
    this.copies = declareLab(this, name, args, PLUGIN_CLASSES, opts);
    this.registerOutputs({ copies: this.copies });
  }
}

/**
 * The plugin's Construct of a Lab. The engine sends each input as given, an output of another resource where the
 * program gave one: the lab's own fields (its copies, pool, the template's VMs) must be values, as in vp.Lab,
 * while the fields of its resources (a clone's source key, a password) may be outputs.
 */
export async function constructLab(
  name: string,
  inputs: Record<string, unknown>,
  opts: pulumi.ComponentResourceOptions,
): Promise<provider.ConstructResult> {
  const outputs = Object.keys(inputs).filter((field) => pulumi.Output.isInstance(inputs[field]));
  if (outputs.length > 0)
    throw new pulumi.InputPropertiesError({
      message: `lab '${name}': the lab's fields must be values the program knows`,
      errors: outputs.map((field) => ({
        propertyPath: field,
        reason: `${field} is an output of another resource or a secret as a whole: give the lab's fields as values (outputs inside them are fine)`,
      })),
    });
  const lab = new LabComponent(name, inputs as unknown as LabArgs, opts);
  return { urn: lab.urn, state: { copies: lab.copies } };
}
