import { isDeepStrictEqual } from "node:util";
import type { EngineEvent, StepEventMetadata } from "@pulumi/pulumi/automation";
import { unknownValue } from "@pulumi/pulumi/runtime/rpc";
import { machineOwnerShape, OWNER_INPUTS } from "../provider/schemas/hardware";
import { RESOURCE_LIST } from "../provider/resources";
import { withKnownMachine } from "../provider/resources/framework/hardwareResource";
import { PROGRESS } from "./progress-rows";
import { ENGINE_PENDING_WARNING } from "./pending-creates";
import { HIDDEN_INPUTS } from "../provider/schemas/hiddenInputs";

/**
 * A plan a team can post on a pull request, built from the engine's events of
 * a preview (or of an update, to say what was done). Pure: events in, plan out.
 */
export type Action = "create" | "update" | "replace" | "delete";

export interface FieldChange {
  field: string;
  /** Absent on create. */
  before?: unknown;
  /** Absent on delete; `UNKNOWN` when only the platform will tell. */
  after?: unknown;
}

export interface PlannedChange {
  action: Action;
  /** Resource type without the dynamic-provider prefix, e.g. `VirtualMachine`. */
  type: string;
  name: string;
  urn: string;
  /** The declared inputs that change (the provider's bookkeeping inputs left out). */
  fields: FieldChange[];
  /** The provider's bookkeeping inputs that change (bookkeepingInputsOf); absent when none. */
  bookkeeping?: FieldChange[];
  /** The inputs that force a replacement. */
  replaceKeys?: string[];
}

/** A resource whose live inputs differed from the recorded ones when refreshed. */
export interface OutsideChange {
  type: string;
  name: string;
  urn: string;
  /** No longer exists on the platform. */
  deleted?: boolean;
  fields: FieldChange[];
}

export interface Plan {
  changes: PlannedChange[];
  /** Summary counts, `same` included. */
  counts: Record<Action | "same", number>;
  /** What a refresh read that differs from the state (changes made on the platform outside Pulumi). */
  outside: OutsideChange[];
  /** The provider's and the engine's warnings: restarts, data loss, replacements. */
  warnings: string[];
  /** What a lab's calendar does next (its next start, stop and end), as the program said it at preview. */
  calendar?: string[];
  /** Errors the engine reported (the operation failed). */
  errors: string[];
}

/** How the engine shows a value known only after the update (Pulumi's own sentinel). */
export const UNKNOWN_VALUE: string = unknownValue;
export const UNKNOWN = "(known after update)";

const ACTION_OF: Record<string, Action | "same" | undefined> = {
  same: "same",
  create: "create",
  update: "update",
  delete: "delete",
  replace: "replace",
  "create-replacement": "replace",
  "delete-replaced": "replace",
};

/** Pulumi's own resources (the stack, default providers) are not the user's. */
const isInternal = (type: string) => type === "pulumi:pulumi:Stack" || type.startsWith("pulumi:providers:");

/** `pulumi-nodejs:dynamic/vplatform:VirtualMachine` → `VirtualMachine`. */
export const shortType = (type: string) => type.split(":").pop() ?? type;
export const nameOf = (urn: string) => urn.split("::").pop() ?? urn;

const HIDDEN_FIELDS: ReadonlySet<string> = new Set(["__provider"]);

/** The inputs that tie a drive, NIC or device to its VM. */
const OWNER_SHAPE = machineOwnerShape("hardware");
/** Hardware: the resource types whose inputs include the whole owner shape (a VM's own powerCyclePolicy, a VmPower's vm are declared). */
const HARDWARE_TYPES: ReadonlySet<string> = new Set(
  RESOURCE_LIST.filter((r) => Object.keys(OWNER_SHAPE).every((f) => f in r.inputs.shape)).map((r) => r.token),
);

/**
 * Inputs the provider keeps for itself, not what the file declares: the hidden
 * inputs (the create marker of every resource, a VM's start after its hardware), and the owner fields the SDK copies from the VM
 * into its drives, NICs and devices that never reach the platform (the VM's
 * key and powerCyclePolicy). Plans do not show them as changes.
 */
export function bookkeepingInputsOf(type: string): ReadonlySet<string> {
  return new Set([...HIDDEN_INPUTS, ...(HARDWARE_TYPES.has(shortType(type)) ? OWNER_INPUTS : [])]);
}
const bookkeepingOf = (type: string) => {
  const inputs = bookkeepingInputsOf(type);
  return (f: FieldChange) => inputs.has(f.field);
};

/** How the engine's events carry a secret: its signature key, the ciphertext masked. */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";
export const SECRET = "[secret]";
/** Whether the engine's events mask a secret here (either way they do). */
export const isMaskedSecret = (v: unknown): boolean => v === SECRET || (typeof v === "object" && v !== null && SECRET_SIG in v);

/** Unknowns and secrets as a reader should see them, at any depth. */
function shown(v: unknown): unknown {
  if (v === UNKNOWN_VALUE) return UNKNOWN;
  if (Array.isArray(v)) return v.map(shown);
  if (v && typeof v === "object") {
    if (isMaskedSecret(v)) return SECRET;
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shown(x)]));
  }
  return v;
}

/** The fields that differ between two property bags (secrets stay as the engine masked them). */
export function changedFields(before: Record<string, unknown> = {}, after: Record<string, unknown> = {}): FieldChange[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => !HIDDEN_FIELDS.has(k)).sort();
  return keys.flatMap((field) => {
    if (isDeepStrictEqual(before[field], after[field])) return [];
    const [b, a] = [shown(before[field]), shown(after[field])];
    return [{ field, ...(b === undefined ? {} : { before: b }), ...(a === undefined ? {} : { after: a }) }];
  });
}

/** The new inputs as the provider diffs them: hardware of a VM updated in place keeps its machine, though the preview shows it unknown. */
function diffedInputs(m: StepEventMetadata): Record<string, unknown> | undefined {
  const [olds, news] = [m.old?.inputs, m.new?.inputs];
  return olds && news && HARDWARE_TYPES.has(shortType(m.type)) ? withKnownMachine(olds, news) : news;
}

function plannedChange(action: Action, m: StepEventMetadata): PlannedChange {
  const changed =
    action === "delete" ? [] : action === "create" ? changedFields({}, m.new?.inputs) : changedFields(m.old?.inputs, diffedInputs(m));
  const isBookkeeping = bookkeepingOf(m.type);
  return {
    action,
    type: shortType(m.type),
    name: nameOf(m.urn),
    urn: m.urn,
    fields: changed.filter((f) => !isBookkeeping(f)),
    ...(changed.some(isBookkeeping) ? { bookkeeping: changed.filter(isBookkeeping) } : {}),
    ...(action === "replace" && m.keys?.length ? { replaceKeys: m.keys } : {}),
  };
}

// eslint-disable-next-line no-control-regex
// biome-ignore lint/suspicious/noControlCharactersInRegex: the escape character starts the terminal colour codes removed here
const stripAnsi = (s: string) => s.replace(/\x1b\[[0-9;]*m|<\{%[a-z]*%\}>/g, "");

export function planFromEvents(events: readonly EngineEvent[]): Plan {
  const byUrn = new Map<string, PlannedChange>();
  const outside = new Map<string, OutsideChange>();
  const same = new Set<string>();
  const refreshing = new Set<string>();
  const warnings: string[] = [];
  const calendar: string[] = [];
  const errors: string[] = [];
  const policyErrors: string[] = [];
  for (const e of events) {
    // A refresh step's outcome: op "refresh" inside a preview, "update"/"delete"/"same" in a refresh.
    const read = e.resOutputsEvent?.metadata;
    if (read && refreshing.has(read.urn)) {
      refreshing.delete(read.urn);
      // The inputs as read back from the platform against the recorded ones: computed
      // outputs (status, running) change on their own and are not drift.
      const where = { type: shortType(read.type), name: nameOf(read.urn), urn: read.urn };
      if (read.op === "delete" || !read.new?.id) outside.set(read.urn, { ...where, deleted: true, fields: [] });
      else {
        const isBookkeeping = bookkeepingOf(read.type);
        const fields = changedFields(read.old?.inputs, read.new.inputs).filter((f) => !isBookkeeping(f));
        if (fields.length) outside.set(read.urn, { ...where, fields });
      }
    }
    const m = e.resourcePreEvent?.metadata;
    if (m?.op === "refresh") {
      // A component (a lab) has no id: nothing of it is on the platform, so its read is no news.
      if (!isInternal(m.type) && m.old?.id) refreshing.add(m.urn);
    } else if (m && !isInternal(m.type)) {
      const action = ACTION_OF[m.op];
      if (action === "same") same.add(m.urn);
      // One entry per resource: a replacement shows as three steps, "replace" carries the keys.
      else if (action && (!byUrn.has(m.urn) || m.op === "replace")) byUrn.set(m.urn, plannedChange(action, m));
    }
    // A policy pack's verdict: the report (and the PR comment made of it) says the rule and why, not only that it failed.
    const p = e.policyEvent;
    if (p) {
      const on = p.resourceUrn ? ` (${shortType(p.resourceUrn.split("::")[2]?.split("$").pop() ?? "")} ${nameOf(p.resourceUrn)})` : "";
      // The message is the rule's description, then the violation: the violation says it.
      const lines = stripAnsi(p.message).trim().split("\n");
      const text = `policy ${p.policyName}${on}: ${(lines.length > 1 ? lines.slice(1) : lines).join(" ").trim()}`;
      if (p.enforcementLevel === "mandatory") policyErrors.push(text);
      else warnings.push(text);
    }
    const d = e.diagnosticEvent;
    // Ephemeral: a line shown on its resource while it works (a wait, a routine power step), not kept with the run.
    if (d && !d.ephemeral) {
      const text = stripAnsi(d.message).trim();
      if (!text) continue;
      if (d.severity === "error") errors.push(text);
      // A killed run's pending operations: the CLI settles them and says so in its own words (pending-creates.ts).
      else if (ENGINE_PENDING_WARNING.test(text)) continue;
      else if (CALENDAR_NOTE.test(text)) calendar.push(text.replace(/^vplatform: /, ""));
      else if (d.severity === "warning" || /^vplatform:/m.test(text))
        warnings.push(...text.split("\n").filter((l) => l.trim() && !PROGRESS.test(l)));
    }
  }
  const changes = [...byUrn.values()];
  const count = (a: Action) => changes.filter((c) => c.action === a).length;
  return {
    changes,
    counts: { create: count("create"), update: count("update"), replace: count("replace"), delete: count("delete"), same: same.size },
    outside: [...outside.values()],
    warnings: [...new Set(warnings)],
    ...(calendar.length ? { calendar: [...new Set(calendar)] } : {}),
    // The engine's bare "preview failed" says nothing a broken rule does not.
    errors: [...new Set([...policyErrors, ...errors])].filter((e) => !(policyErrors.length && /^(preview|update) failed$/.test(e))),
  };
}

/** The line a lab with a calendar logs at preview (sdk/labCalendar.ts). */
const CALENDAR_NOTE = /^vplatform: lab '[^']+' calendar: /;

/**
 * An update whose changed inputs are all the provider's bookkeeping: the engine
 * plans a step (the next `up` rewrites them in the state) but nothing declared
 * changes and nothing is sent to the platform. An update that shows no input
 * at all is not one: unexplained, it counts as a change.
 */
export const isBookkeepingOnly = (c: PlannedChange): boolean =>
  c.action === "update" && c.fields.length === 0 && (c.bookkeeping?.length ?? 0) > 0;

/** What a plan changes as its reader sees it: nothing, only bookkeeping inputs, or declared fields or resources. */
export type Visible = "none" | "bookkeeping-only" | "changes";

export function visibleChanges(changes: readonly PlannedChange[]): Visible {
  if (changes.length === 0) return "none";
  return changes.every(isBookkeepingOnly) ? "bookkeeping-only" : "changes";
}
