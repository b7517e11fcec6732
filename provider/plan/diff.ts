/**
 * Diffs of previous outputs (which echo the normalized inputs) against new
 * checked inputs. What a changed field does comes from its schema metadata
 * (`onChange`), so the rules live beside the field they govern.
 */
import { apiBodyOf, fieldMeta, normalizeFieldValue, type FieldMeta, type Shape } from "../schemas/common";
import { containsPreviewUnknown, jsonEqual, sameMachineType, toNumber } from "../schemas/normalize";

type Values = Record<string, unknown>;

export interface ResourceDiff {
  changes: boolean;
  /** Fields whose change replaces the object. */
  replaces: string[];
  /** Fields changed in place (includes powerCycle, nextStart and noApiCall fields). */
  updates: string[];
  /** In-place fields that take effect only after a power cycle of the VM. */
  powerCycle: string[];
  /** In-place fields that take effect at the VM's next start. */
  nextStart: string[];
  /** In-place changes without an API call: provider-only inputs, dropped declarations, create-only fields. */
  noApiCall: string[];
  /** The replacement takes the same unique name, so the old object must go first. */
  deleteBeforeReplace: boolean;
  /** Human lines for the preview (data loss, restores, renumbering, ignored changes). */
  warnings: string[];
}

/** Equal once both sides are normalized the way the API's representation of the field requires. */
export function sameFieldValue(meta: Pick<FieldMeta, "kind" | "compare">, a: unknown, b: unknown): boolean {
  const [na, nb] = [normalizeFieldValue(meta, a), normalizeFieldValue(meta, b)];
  return meta.compare === "machineType" ? sameMachineType(na, nb) : jsonEqual(na, nb);
}

export function formatValue(meta: Pick<FieldMeta, "secret">, value: unknown): string {
  if (value === undefined) return "(unset)";
  if (meta.secret) return "(secret)";
  if (containsPreviewUnknown(value)) return "(known after apply)";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** "cpuCores 2 → 4" */
export function describeChange(shape: Shape, field: string, olds: Values, news: Values): string {
  const meta = fieldMeta(shape[field]) ?? { description: "" };
  return `${field} ${formatValue(meta, olds[field])} → ${formatValue(meta, news[field])}`;
}

interface DiffOptions {
  /** "VM 'web'", "drive 'data' of machine 54": the object in warnings. */
  what: string;
  /** The platform refuses a second row of the name (409): a replacement that keeps the name must delete first. */
  namesUniqueOnPlatform: boolean;
}

/** A diff that changes nothing, to add to (a new one each time: callers push into its lists). */
export function noChange(): ResourceDiff {
  return {
    changes: false,
    replaces: [],
    updates: [],
    powerCycle: [],
    nextStart: [],
    noApiCall: [],
    deleteBeforeReplace: false,
    warnings: [],
  };
}

export function diffFields(shape: Shape, olds: Values, news: Values, opts: DiffOptions): ResourceDiff {
  const d = noChange();
  for (const [field, schema] of Object.entries(shape)) {
    const meta = fieldMeta(schema) ?? { description: "" };
    const next = news[field];
    const unknown = containsPreviewUnknown(next);
    if (!unknown && sameFieldValue(meta, olds[field], next)) continue;
    const change = describeChange(shape, field, olds, news);
    if (next === undefined) {
      // No longer declared: the platform keeps its value, the provider stops managing it.
      d.updates.push(field);
      d.noApiCall.push(field);
      continue;
    }
    switch (meta.onChange ?? "update") {
      case "replace":
        d.replaces.push(field);
        continue;
      case "growOnly":
        if (!unknown && Number(toNumber(next)) < Number(toNumber(olds[field]))) d.replaces.push(field);
        else d.updates.push(field);
        continue;
      case "powerCycle":
        d.powerCycle.push(field);
        break;
      case "nextStart":
        d.nextStart.push(field);
        break;
      case "control":
        d.noApiCall.push(field);
        break;
    }
    d.updates.push(field);
    // A create-only field with its own action (cloud-init files) is still applied.
    if (meta.createOnly && meta.onChange !== "control" && meta.onChange !== "action") {
      d.noApiCall.push(field);
      d.warnings.push(`${opts.what}: ${change} is recorded but not applied: it is only used when the object is created`);
    }
  }
  d.changes = d.replaces.length > 0 || d.updates.length > 0;
  const sameName = news.name === undefined || sameFieldValue({ kind: "string" }, olds.name, news.name);
  d.deleteBeforeReplace = opts.namesUniqueOnPlatform && d.replaces.length > 0 && sameName;
  return d;
}

/**
 * The PUT body of an in-place update: the changed fields that have an API name,
 * in the API's representation; never create-only fields, fields set through an
 * action (note, power, restore) or fields no longer declared.
 */
export function apiUpdateBody(shape: Shape, diff: ResourceDiff, news: Values): Record<string, unknown> {
  const fields = diff.updates.filter((f) => {
    const meta = fieldMeta(shape[f]);
    return meta?.api && meta.onChange !== "action" && !diff.noApiCall.includes(f);
  });
  return apiBodyOf(shape, Object.fromEntries(fields.map((f) => [f, news[f]])), "update");
}

/** "drive 'os'", or the bare noun for an unnamed object: what a diff's warnings are about. */
export const named = (noun: string, values: Values) => (typeof values.name === "string" ? `${noun} '${values.name}'` : noun);
