/**
 * Building blocks of the input schemas. Each field carries its API name and
 * representation as zod metadata, so the camelCase ↔ snake_case mapping, the
 * read-back normalization, check() and schema.json all come from one place.
 */
import { z } from "zod";
import type { OperationTimeouts } from "./timeouts";
import { normalizeMac, sameMachineType, toBoolean, toKey, toNumber } from "./normalize";

/**
 * How the API represents a field:
 * - `string`, `int`, `bool`, `json`: as is (JSON booleans for enabled/allow_hotplug, per the spec)
 * - `stringBool`: the strings "true"/"false" (most VM settings, per the spec)
 * - `key`: a row key: a digits-only string in inputs and bodies (the spec types machine, vnet,
 *   cluster as strings); rows may answer integers
 * - `stringInt`: an integer sent as a string (drive preferred_tier "1".."5")
 */
export type ApiKind = "string" | "int" | "bool" | "stringBool" | "key" | "stringInt" | "json";

/**
 * What changing a field does to an existing object (read by provider/plan diffs):
 * - `update` (default): changed in place (PUT)
 * - `replace`: the object is deleted and created again
 * - `powerCycle`: changed in place, takes effect only after a power cycle of the VM
 * - `nextStart`: changed in place, takes effect at the VM's next start
 * - `growOnly`: a larger value changes in place, a smaller one replaces
 * - `action`: changed in place through a separate action (note_actions, power, restore)
 * - `control`: steers the provider only; no API call
 */
export type ChangeEffect = "update" | "replace" | "powerCycle" | "nextStart" | "growOnly" | "action" | "control";

/**
 * What removing an optional input from the program does (read by the docs; the
 * diff follows from the schema: a default is filled in by check, anything else
 * is no longer compared):
 * - `default`: the field has a default, so the platform is set back to it
 * - `unmanaged`: the platform keeps its value and the provider stops managing it
 */
export type WhenRemoved = "default" | "unmanaged";

/** Field-specific equality beyond the API kind's normalization. */
export type Comparison = "machineType" | "mac";

/** The rows an input names: `table` (the column `column`, default the row key); `noun` names them in messages. */
export interface RowReference {
  table: string;
  noun: string;
  column?: string;
}

export interface FieldMeta {
  description: string;
  /** API field name; absent for provider-only inputs (powerState, adopt, timeouts, ...). */
  api?: string;
  kind?: ApiKind;
  /** Only sent on create (the API refuses it in PUT bodies). */
  createOnly?: boolean;
  onChange?: ChangeEffect;
  /** Set on every optional input by apiField/providerField (see WhenRemoved). */
  whenRemoved?: WhenRemoved;
  compare?: Comparison;
  /** Never shown in plain text (schema.json marks it secret). */
  secret?: boolean;
  /** The value (or each entry of a list) names a row of another table, which must exist: checked at preview. */
  references?: RowReference;
  [k: string]: unknown;
}

/** A field with its API mapping and description. */
export function apiField<T extends z.ZodType>(
  schema: T,
  api: string,
  kind: ApiKind,
  description: string,
  extra: Partial<FieldMeta> = {},
): T {
  return schema.meta({ description, api, kind, ...removal(schema), ...extra }) as T;
}

/** A provider-only input (never sent to the platform). */
export function providerField<T extends z.ZodType>(schema: T, description: string, extra: Partial<FieldMeta> = { onChange: "control" }): T {
  return schema.meta({ description, ...removal(schema), ...extra }) as T;
}

/** The rule for an optional input: with a default, removing it resets the field to that default; otherwise it stops being managed. */
export function removal(schema: z.ZodType): { whenRemoved?: WhenRemoved } {
  const parsed = schema.safeParse(undefined);
  if (!parsed.success) return {}; // required: cannot be removed
  return { whenRemoved: parsed.data === undefined ? "unmanaged" : "default" };
}

export function fieldMeta(schema: unknown): FieldMeta | undefined {
  return z.globalRegistry.get(schema as z.ZodType) as FieldMeta | undefined;
}

/** A row key: digits, given as a string or a number (normalized to a string). */
export const keySchema = z
  .union([z.string().regex(/^\d+$/, "must be a row key (digits)"), z.number().int().nonnegative()], {
    error: (issue) =>
      issue.input === undefined ? 'required: a row key (digits, e.g. "42")' : 'must be a row key: digits as text ("42") or a whole number',
  })
  .transform(String);

/**
 * Options for a cross-field rule (superRefine): it is checked whenever the
 * fields it reads are valid, so its problem is reported beside another
 * field's wrong type or enumeration value instead of after that is fixed.
 */
export function whenValid(...fields: string[]) {
  return {
    when: (payload: { issues: readonly { path?: readonly PropertyKey[] }[] }) =>
      !payload.issues.some((i) => fields.includes(String(i.path?.[0]))),
  };
}

/** Spec "suggested client timeouts", upper end of each range, in seconds. */
export const DEFAULT_TIMEOUTS: OperationTimeouts = {
  create: 600,
  update: 600,
  clone: 1800,
  snapshot: 300,
  restore: 900,
  powerChange: 60,
  delete: 300,
  gracefulShutdown: 120,
  forcedShutdown: 30,
  reboot: 120,
  hotplug: 300,
};

const seconds = (what: string) =>
  z
    .number()
    .positive()
    .max(86_400)
    .optional()
    .meta({ description: `${what} (seconds)` });

export const timeoutsSchema = z
  .strictObject({
    create: seconds(`Creating the row and waiting for it (default ${DEFAULT_TIMEOUTS.create})`),
    update: seconds(`Changing it in place, waits included (default ${DEFAULT_TIMEOUTS.update})`),
    clone: seconds(`Waiting for a clone (default ${DEFAULT_TIMEOUTS.clone})`),
    snapshot: seconds(`Waiting for a snapshot (default ${DEFAULT_TIMEOUTS.snapshot})`),
    restore: seconds(`Waiting for a restore (default ${DEFAULT_TIMEOUTS.restore})`),
    powerChange: seconds(`Waiting for a power on (default ${DEFAULT_TIMEOUTS.powerChange})`),
    delete: seconds(`Waiting for a deletion (default ${DEFAULT_TIMEOUTS.delete})`),
    gracefulShutdown: seconds(`Graceful (ACPI) shutdown before the forced fallback (default ${DEFAULT_TIMEOUTS.gracefulShutdown})`),
    forcedShutdown: seconds(`Forced power off (default ${DEFAULT_TIMEOUTS.forcedShutdown})`),
    reboot: seconds(`Reboot (default ${DEFAULT_TIMEOUTS.reboot})`),
    hotplug: seconds(`Hot-unplug of a drive before its deletion (default ${DEFAULT_TIMEOUTS.hotplug})`),
  })
  .optional()
  .meta({
    onChange: "control",
    whenRemoved: "unmanaged",
    description:
      "Per-operation time limits in seconds. The engine's customTimeouts never reach a dynamic provider; these do. Defaults: the spec's suggested client timeouts.",
  });

export const adoptSchema = providerField(
  z.union([z.boolean(), keySchema], { error: () => 'must be true (find the row by its name) or a row key (digits, e.g. "42")' }).optional(),
  'Take over an existing row instead of creating one: true finds it by name, a row key (e.g. "42") names it exactly. The row must match the declaration (differences are listed).',
);

/** Input value → API body value. */
function toApi(kind: ApiKind, value: unknown): unknown {
  switch (kind) {
    case "stringBool":
      return value ? "true" : "false";
    case "stringInt":
    case "key":
      return String(value);
    default:
      return value;
  }
}

/** API row value (or an old output) → the normalized input form, so reads and diffs see no false changes. */
export function normalizeFieldValue(meta: Pick<FieldMeta, "kind" | "compare">, value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  if (meta.compare === "mac") return normalizeMac(value);
  switch (meta.kind) {
    case "bool":
    case "stringBool":
      return toBoolean(value);
    case "int":
    case "stringInt":
      return toNumber(value);
    case "key":
      return toKey(value);
    default:
      return value;
  }
}

export type Shape = Record<string, z.ZodType>;

function mapped(shape: Shape): [string, Required<Pick<FieldMeta, "api" | "kind">> & FieldMeta][] {
  return Object.entries(shape).flatMap(([name, s]) => {
    const m = fieldMeta(s);
    return m?.api ? [[name, { kind: "string", ...m } as Required<Pick<FieldMeta, "api" | "kind">> & FieldMeta]] : [];
  });
}

/** The API body for the given inputs: only fields with an API name and a value; `update` leaves create-only fields out. */
export function apiBodyOf(shape: Shape, inputs: Record<string, unknown>, mode: "create" | "update" = "create"): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, m] of mapped(shape)) {
    if (inputs[name] === undefined || (mode === "update" && m.createOnly)) continue;
    body[m.api] = toApi(m.kind, inputs[name]);
  }
  return body;
}

/**
 * The spellings a field's comparison holds for one value: a live value that means the declared one reads back as
 * declared (a machine type the platform reports in the versioned form of the declared `q35`), so refresh shows no change.
 */
const SAME_VALUE: Partial<Record<Comparison, (declared: unknown, live: unknown) => boolean>> = { machineType: sameMachineType };

/**
 * The inputs a live row corresponds to. With `declared`, only the fields the
 * program declared are returned (undeclared fields are the platform's business:
 * managing only what is declared is what keeps refresh free of diffs), each in its
 * declared spelling where the live value means the same (SAME_VALUE).
 */
export function inputsFromApiRow(shape: Shape, row: Record<string, unknown>, declared?: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, m] of mapped(shape)) {
    if (declared && declared[name] === undefined) continue;
    if (!(m.api in row)) continue;
    const v = normalizeFieldValue(m, row[m.api]);
    if (v === undefined) continue;
    const given = declared?.[name];
    out[name] = given !== undefined && m.compare && SAME_VALUE[m.compare]?.(given, v) ? given : v;
  }
  return out;
}

/** A resource's API mapping, generated from its shape: read fields, body builder, row reader. */
export function plainMappingOf<I>(shape: Shape) {
  return {
    readFields: apiFieldsOf(shape),
    toApiBody: (inputs: Partial<I>, mode: "create" | "update" = "create") => apiBodyOf(shape, inputs as Record<string, unknown>, mode),
    fromApiRow: (row: Record<string, unknown>, declared?: Record<string, unknown>) => inputsFromApiRow(shape, row, declared) as Partial<I>,
  };
}

/** `fields=` for reading exactly the mapped columns (plus the key). */
export function apiFieldsOf(shape: Shape): string {
  return ["$key", ...mapped(shape).map(([, m]) => m.api)].join(",");
}

// ---- network helpers (vnets) --------------------------------------------------

export function ipv4ToInt(ip: string): number | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip);
  if (!m) return undefined;
  const parts = m.slice(1).map(Number);
  if (parts.some((p) => p > 255)) return undefined;
  return ((parts[0] << 24) >>> 0) + (parts[1] << 16) + (parts[2] << 8) + parts[3];
}

export const ipv4Schema = z.string().refine((s) => ipv4ToInt(s) !== undefined, "must be an IPv4 address like 10.0.0.1");

export function parseCidr(cidr: string): { base: number; bits: number } | undefined {
  const parts = cidr.split("/");
  if (parts.length !== 2) return undefined; // "10.0.0.0/24/8" is no CIDR
  const [ip, bitsText] = parts;
  const base = ipv4ToInt(ip ?? "");
  const bits = Number(bitsText);
  if (base === undefined || !/^\d+$/.test(bitsText ?? "") || bits > 32) return undefined;
  return { base, bits };
}

export function cidrContains(cidr: { base: number; bits: number }, ip: number): boolean {
  const mask = cidr.bits === 0 ? 0 : (~0 << (32 - cidr.bits)) >>> 0;
  return (ip & mask) >>> 0 === (cidr.base & mask) >>> 0;
}

/** The fields of an object schema (none for another schema). */
/** A field path as users write it: `apiKeys[0].ipDenyList[1].address`. */
export function formatPath(path: readonly PropertyKey[]): string {
  return path.map((seg, i) => (typeof seg === "number" ? `[${seg}]` : i === 0 ? String(seg) : `.${String(seg)}`)).join("");
}

export const shapeOf = (schema: z.ZodType): Record<string, z.ZodType> =>
  (schema as unknown as { shape?: Record<string, z.ZodType> }).shape ?? {};
