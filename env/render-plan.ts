import type { EngineCommand } from "./cli-args";
import { withUnits } from "../provider/schemas/sizes";
import { SIZE_FIELDS } from "./environment-schema";
import { isBookkeepingOnly, UNKNOWN, visibleChanges, type Action, type FieldChange, type Plan } from "./plan";

/** What a run of the CLI reports: the same object printed as text or as JSON. */
export interface Report {
  command: EngineCommand;
  stack: string;
  file: string;
  /** `changes`/`no-changes` for preview, `drift`/`no-drift` for drift, `succeeded` or `failed` otherwise. */
  result: "changes" | "no-changes" | "drift" | "no-drift" | "succeeded" | "failed";
  exitCode: number;
  plan: Plan;
}

const MARK: Record<Action, string> = { create: "+", update: "~", replace: "+-", delete: "-" };
const MAX_VALUE = 120;

export function formatValue(v: unknown): string {
  if (v === UNKNOWN) return v;
  const text = JSON.stringify(v) ?? String(v);
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}

/** A field's value as the plans (text and Markdown) show it: sizes with their units. */
export const formatFieldValue = (field: string, v: unknown): string =>
  SIZE_FIELDS.has(field) && typeof v === "number" ? withUnits(v) : formatValue(v);

export function formatField(f: FieldChange): string {
  const show = (v: unknown) => formatFieldValue(f.field, v);
  if (!("before" in f)) return `${f.field}: ${show(f.after)}`;
  if (!("after" in f)) return `${f.field}: ${show(f.before)} → (unset)`;
  return `${f.field}: ${show(f.before)} → ${show(f.after)}`;
}

const TITLE: Record<EngineCommand, string> = {
  preview: "Plan",
  drift: "Drift (platform vs file)",
  up: "Applied",
  refresh: "Refreshed",
  destroy: "Destroyed",
};

export function summaryLine(plan: Plan): string {
  const c = plan.counts;
  const bookkeeping = plan.changes.filter(isBookkeepingOnly).length;
  const update = `${c.update} to update${bookkeeping ? ` (${bookkeeping} of them bookkeeping only)` : ""}`;
  return `${c.create} to create, ${update}, ${c.replace} to replace, ${c.delete} to delete, ${c.same} unchanged`;
}

/** A failed check has no verdict. */
function driftVerdict(r: Report): string[] {
  if (r.result === "failed") return [];
  if (r.result === "drift") return ["", "DRIFT: the platform differs from the file (exit 2)."];
  const bookkeeping = visibleChanges(r.plan.changes) === "bookkeeping-only";
  return [
    "",
    `No drift: the platform matches the file${bookkeeping ? "; the next `up` would only rewrite the provider's bookkeeping inputs in the state" : ""}.`,
  ];
}

/** The summary line: a failed run says so first (an `up` that failed applied nothing it can vouch for, and found no "no changes"). */
function summaryOf(r: Report): string {
  const { plan } = r;
  if (r.result === "failed") {
    // Errors the report cannot list (the engine printed them only on stderr) are not pretended to be below.
    const where = plan.errors.length ? "see Errors" : "no error message reached the report: see the log on stderr";
    return `FAILED (${where})${plan.changes.length ? `; planned: ${summaryLine(plan)}` : ""}`;
  }
  return plan.changes.length || r.command === "up" || r.command === "destroy" ? summaryLine(plan) : "no changes";
}

/** Readable by default: what a reviewer needs on a pull request. */
export function renderText(r: Report): string {
  const out: string[] = [`vplatform env ${r.command}: stack '${r.stack}', ${r.file}`];
  const { plan } = r;
  if (r.command === "refresh") out.push(`${TITLE.refresh}: ${plan.outside.length} resource(s) changed on the platform outside Pulumi`);
  else out.push(`${TITLE[r.command]}: ${summaryOf(r)}`);
  if (plan.changes.length) out.push("");
  for (const c of plan.changes) {
    const because = c.replaceKeys?.length ? `  (replaced because of: ${c.replaceKeys.join(", ")})` : "";
    out.push(`  ${MARK[c.action].padEnd(2)} ${c.action.padEnd(7)} ${c.type} '${c.name}'${because}`);
    for (const f of c.fields) out.push(`        ${formatField(f)}`);
    if (!c.fields.length && c.bookkeeping?.length && c.action === "update") {
      out.push(
        `        (only the provider's bookkeeping: ${c.bookkeeping.map((f) => f.field).join(", ")}; nothing is sent to the platform)`,
      );
    }
  }
  if (plan.outside.length) {
    out.push("", "Changed on the platform outside Pulumi (read by refresh):");
    for (const o of plan.outside) {
      out.push(
        o.deleted ? `  -  ${o.type} '${o.name}' was deleted` : `  ~  ${o.type} '${o.name}'`,
        ...o.fields.map((f) => `        ${formatField(f)}`),
      );
    }
  }
  if (plan.calendar?.length) out.push("", "Calendar:", ...plan.calendar.map((c) => `  ${c}`));
  if (plan.warnings.length) out.push("", "Warnings:", ...plan.warnings.map((w) => `  ! ${w}`));
  if (plan.errors.length) out.push("", "Errors:", ...plan.errors.map((e) => `  x ${e}`));
  if (r.command === "drift") out.push(...driftVerdict(r));
  if (r.result === "failed") out.push("", `FAILED (exit ${r.exitCode})`);
  return `${out.join("\n")}\n`;
}

/** Machine-readable: the report as it is. */
export const renderJson = (r: Report) => `${JSON.stringify(r, null, 2)}\n`;
