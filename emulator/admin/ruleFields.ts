/**
 * The fields every request rule of the admin API shares (faults, chaos): the target (`method`, `table`,
 * "*" for any) and the checks of a rule body's numbers, each refusal naming the field.
 */
import { validationError } from "../model/errors";

const METHODS = new Set(["*", "GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"]);

export interface RuleTarget {
  method: string;
  table: string;
}

/** The rule body as an object with only the given field names. */
export function ruleBody(body: unknown, what: string, known: string[]): Record<string, unknown> {
  if (!body || typeof body !== "object" || Array.isArray(body)) throw validationError(what, "must be a JSON object");
  for (const name of Object.keys(body)) if (!known.includes(name)) throw validationError(name, `unknown ${what} field`);
  return body as Record<string, unknown>;
}

export function ruleTarget(b: Record<string, unknown>): RuleTarget {
  const method = String(b.method ?? "*").toUpperCase();
  if (!METHODS.has(method)) throw validationError("method", "must be an HTTP method or *");
  return { method, table: String(b.table ?? "*") };
}

export function targets(rule: RuleTarget, method: string, table: string): boolean {
  return (rule.method === "*" || rule.method === method) && (rule.table === "*" || rule.table === table);
}

export function intField(b: Record<string, unknown>, name: string, min: number, max: number): number | undefined {
  const v = b[name];
  if (v === undefined) return undefined;
  if (typeof v === "number" && Number.isInteger(v) && v >= min && v <= max) return v;
  throw validationError(name, `must be an integer ${min}–${max}`);
}

export function probabilityField(b: Record<string, unknown>): number | undefined {
  const probability = b.probability === undefined ? undefined : Number(b.probability);
  if (probability !== undefined && !(probability >= 0 && probability <= 1)) throw validationError("probability", "must be between 0 and 1");
  return probability;
}
