import { z } from "zod";
import { formatPath } from "../../schemas/common";
import { containsPreviewUnknown } from "../../schemas/normalize";
import { HIDDEN_INPUTS } from "../../schemas/hiddenInputs";

export interface CheckFailure {
  property: string;
  reason: string;
}

/**
 * A failure as the engine prints it: `property <p> value <v> has a problem: <reason>`, with <v> looked up among
 * the inputs it sent by the whole of <p> (pulumi's step_generator.go, issueCheckFailures). A nested path
 * (`ipAllowList.0.address`) or an input not given finds nothing and prints `value {<nil>}`: such a failure
 * names no property, so the engine prints `has a problem: <reason>`, and its path heads the reason instead.
 */
export function asEngineFailure(given: Record<string, unknown>, failure: CheckFailure): CheckFailure {
  if (failure.property === "" || Object.hasOwn(given, failure.property)) return failure;
  const path = formatPath(failure.property.split(".").map((seg) => (/^\d+$/.test(seg) ? Number(seg) : seg)));
  return { property: "", reason: failure.reason.startsWith(`${path}: `) ? failure.reason : `${path}: ${failure.reason}` };
}

export type Checked<T> = { ok: true; inputs: T; unknown: Set<string> } | { ok: false; failures: CheckFailure[] };

/** Inputs that travel beside the declared ones (engine and SDK plumbing), never validated. */
const PASSED_THROUGH: ReadonlySet<string> = new Set(["__provider", ...HIDDEN_INPUTS]);

/**
 * Validates and normalizes with the resource's zod schema. Fields whose value
 * is (or contains) an unknown are left out of validation and passed through as
 * unknown, so a preview with not-yet-created dependencies still checks the rest.
 * The cross-field rules (the schema's refinements) still run: a rule's issue is
 * dropped only when the rule had read an unknown field before raising it.
 */
export function checkInputs<S extends z.ZodType>(schema: S, news: Record<string, unknown>): Checked<z.output<S>> {
  const unknown = new Set<string>();
  const known: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(news)) {
    if (PASSED_THROUGH.has(field)) continue;
    if (containsPreviewUnknown(value)) unknown.add(field);
    else known[field] = value;
  }
  const { base, rules } = splitRefinements(schema, unknown);
  const parsed = base.safeParse(known);
  const issues: { path: PropertyKey[]; message: string }[] = parsed.success ? runRules(rules, parsed.data, unknown) : parsed.error.issues;
  const failures = issues
    .flatMap(namingUnrecognizedKeys)
    .filter((issue) => !unknown.has(String(issue.path[0])))
    .map((issue) => ({ property: issue.path.map(String).join("."), reason: issue.message }));
  if (failures.length > 0) return { ok: false, failures };
  // Only unknown fields failed (e.g. a required field that is unknown): fine during preview.
  const inputs = parsed.success ? { ...(parsed.data as Record<string, unknown>) } : { ...known };
  for (const field of unknown) inputs[field] = news[field];
  for (const hidden of HIDDEN_INPUTS) if (news[hidden] !== undefined) inputs[hidden] = news[hidden];
  return { ok: true, inputs: inputs as z.output<S>, unknown };
}

/** zod reports undeclared keys on the object; each is named as its own failure, with the key as the property. */
function namingUnrecognizedKeys(issue: {
  path: PropertyKey[];
  message: string;
  code?: string;
  keys?: string[];
}): { path: PropertyKey[]; message: string }[] {
  if (issue.code !== "unrecognized_keys" || !issue.keys?.length) return [issue];
  return issue.keys.map((key) => ({
    path: [...issue.path, key],
    message: `'${key}' is not an input of this resource (check its spelling)`,
  }));
}

type Rule = { _zod: { check(payload: { value: unknown; issues: z.core.$ZodRawIssue[] }): void } };

/**
 * An object schema's refinements cannot be made partial (zod refuses), so the
 * object is rebuilt from its shape with the unknown fields optional, and the
 * refinements are run by hand on what it parsed.
 */
function splitRefinements(schema: z.ZodType, unknown: Set<string>): { base: z.ZodType; rules: Rule[] } {
  if (!(schema instanceof z.ZodObject)) return { base: schema, rules: [] };
  const def = schema.def as { checks?: unknown[]; catchall?: z.ZodType };
  const rules = (def.checks ?? []) as Rule[];
  let base: z.ZodObject = rules.length ? z.object(schema.shape).catchall(def.catchall ?? z.unknown()) : schema;
  if (rules.length && def.catchall instanceof z.ZodNever) base = z.strictObject(schema.shape);
  const mask: Record<string, true> = Object.fromEntries([...unknown].filter((f) => f in schema.shape).map((f) => [f, true as const]));
  if (unknown.size > 0) base = base.partial(mask as never);
  return { base, rules };
}

/**
 * Runs each rule on the parsed inputs through a proxy that records which
 * fields it read: an issue raised after reading an unknown field may not hold
 * once the value is known, so it is dropped; every other issue stands.
 */
function runRules(rules: Rule[], data: unknown, unknown: Set<string>): { path: PropertyKey[]; message: string }[] {
  const kept: z.core.$ZodRawIssue[] = [];
  for (const rule of rules) {
    let readUnknown = false;
    const watched = new Proxy(data as object, {
      get(target, prop, receiver) {
        if (typeof prop === "string" && unknown.has(prop)) readUnknown = true;
        return Reflect.get(target, prop, receiver);
      },
    });
    // ctx.addIssue pushes synchronously: each issue is judged by what the rule had read when it raised it.
    const issues: z.core.$ZodRawIssue[] = [];
    issues.push = (...raised) => {
      if (!readUnknown) kept.push(...raised);
      return Array.prototype.push.apply(issues, raised);
    };
    rule._zod.check({ value: watched, issues });
  }
  return kept.map((issue) => ({ ...issue, path: issue.path ?? [], message: issue.message ?? "invalid" }));
}

/** Outputs must be plain JSON: no undefined, Date, secrets or class instances. */
export function plainJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
