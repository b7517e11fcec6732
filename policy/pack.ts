// The vplatform policy pack (policy/PulumiPolicy.yaml): the rules of
// policy/rules.ts, each with its settings as the pack's config schema.
import { PolicyPack, type ResourceValidationPolicy, type StackValidationPolicy } from "@pulumi/policy";
import { resourceRules, stackRules, vplatformType, type PolicyResource } from "./rules";

type AnyRule = (typeof resourceRules)[number] | (typeof stackRules)[number];

const configSchemaOf = (rule: AnyRule) => ({ properties: rule.settings as Record<string, object> });

/** The settings as configured, defaults filled in (the framework fills them from the schema's defaults too). */
function settingsOf<C>(rule: { settings: object }, configured: object): C {
  const defaults = Object.fromEntries(Object.entries(rule.settings).map(([k, v]) => [k, (v as { default: unknown }).default]));
  return { ...defaults, ...configured } as C;
}

const resourcePolicies: ResourceValidationPolicy[] = resourceRules.map((rule) => ({
  name: rule.name,
  description: rule.description,
  enforcementLevel: rule.enforcementLevel,
  configSchema: configSchemaOf(rule),
  validateResource: (args, reportViolation) => {
    if (vplatformType(args.type) !== rule.appliesTo) return;
    // The engine hands over the inputs as the provider's check answered them: the rule's type (rules.ts, Declared).
    const check = rule.check as unknown as (r: PolicyResource, c: unknown) => string[];
    for (const message of check({ type: args.type, urn: args.urn, props: args.props }, settingsOf(rule, args.getConfig<object>())))
      reportViolation(message);
  },
}));

const stackPolicies: StackValidationPolicy[] = stackRules.map((rule) => ({
  name: rule.name,
  description: rule.description,
  enforcementLevel: rule.enforcementLevel,
  configSchema: configSchemaOf(rule),
  validateStack: (args, reportViolation) => {
    const resources: PolicyResource[] = args.resources
      .filter((r) => vplatformType(r.type) === rule.appliesTo)
      .map((r) => ({
        type: r.type,
        urn: r.urn,
        props: r.props,
        inputSources: Object.fromEntries(Object.entries(r.propertyDependencies).map(([input, deps]) => [input, deps.map((d) => d.type)])),
      }));
    const checkStack = rule.checkStack as unknown as (r: PolicyResource[], c: unknown) => { urn: string; message: string }[];
    for (const v of checkStack(resources, settingsOf(rule, args.getConfig<object>()))) reportViolation(v.message, v.urn);
  },
}));

new PolicyPack("vplatform", { policies: [...resourcePolicies, ...stackPolicies] });
