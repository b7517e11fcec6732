/**
 * Events: a `task_events` row ties a bus event `<table>.<event>` to a task,
 * optionally narrowed to one object (`owner` "<table>/<key>"), to objects
 * carrying a tag (`tag`, through `tag_members`), or by `table_event_filters`
 * (field → value equalities on the row). The catalog says which events each
 * type offers; generic types (alarms) offer neither an instance nor a tag.
 */
import type { EmulatorContext, EmulatorEvent } from "../../engine/context";
import type { Row } from "../../model/types";
import { runTask } from "./tasks";
import { AUTOMATION } from "../../model/names/automation";
import { TAGS } from "../../model/names/tags";
import { ROW_CHANGES } from "../../model/events";
import { ownerReference } from "../../engine/ownerReference";
import { COMPUTE, VM_EVENTS } from "../../model/names/compute";

/** Tables of this feature: their own row events never trigger tasks (a delivery would trigger itself). */
export const AUTOMATION_TABLES = new Set<string>(Object.values(AUTOMATION));

/** Event types with more than row events: a VM's (the bus names `vms.poweron` etc., the catalog the part after the dot). */
const DOMAIN_EVENTS: Record<string, string[]> = {
  [COMPUTE.vms]: [...ROW_CHANGES, ...Object.keys(VM_EVENTS)],
};

/** Types without objects to pick: no instance, no tag. Nothing emits them in the emulator yet. */
export const GENERIC_TYPES: Record<string, string[]> = {
  alarms: ["raised", "lowered", "resolved"],
};

/** Events a type offers, or undefined for an unknown type. */
export function eventsOfType(ctx: EmulatorContext, table: string): string[] | undefined {
  if (Object.hasOwn(GENERIC_TYPES, table)) return GENERIC_TYPES[table];
  if (Object.hasOwn(DOMAIN_EVENTS, table)) return DOMAIN_EVENTS[table];
  if (!ctx.tables.has(table) || AUTOMATION_TABLES.has(table) || ctx.store(table).def.actions) return undefined;
  return [...ROW_CHANGES];
}

export function eventTypes(ctx: EmulatorContext): string[] {
  return [...ctx.tables.keys(), ...Object.keys(GENERIC_TYPES)].filter((t) => eventsOfType(ctx, t) !== undefined).sort();
}

/** The catalog as rows of `task_event_types`: what a client reads to offer (and check) a type and its events. */
export function catalogRows(ctx: EmulatorContext): Row[] {
  return eventTypes(ctx).map((type) => ({ $key: type, events: eventsOfType(ctx, type), generic: Object.hasOwn(GENERIC_TYPES, type) }));
}

function carriesTag(ctx: EmulatorContext, tag: unknown, member: string): boolean {
  if (!ctx.tables.has(TAGS.tag_members)) return false;
  return ctx.find(TAGS.tag_members, (m) => m.tag === tag && m.member === member).length > 0;
}

/** Whether a task event applies to this row (its table and event already match). */
export function appliesTo(ctx: EmulatorContext, taskEvent: Row, table: string, row: Row): boolean {
  const member = ownerReference(table, row.$key);
  if (taskEvent.owner && taskEvent.owner !== member) return false;
  if (taskEvent.tag !== null && taskEvent.tag !== undefined && !carriesTag(ctx, taskEvent.tag, member)) return false;
  const filters = (taskEvent.table_event_filters ?? {}) as Record<string, unknown>;
  return Object.entries(filters).every(([field, value]) => String(field === "$key" ? row.$key : row[field]) === String(value));
}

/** The `${NAME}` of the object an event is about. */
export function objectName(row: Row): string {
  return String(row.name ?? row.$key);
}

/** Runs the enabled tasks whose events match a bus event. */
export function dispatchEvent(ctx: EmulatorContext, event: EmulatorEvent): void {
  if (AUTOMATION_TABLES.has(event.table) || !event.name.startsWith(`${event.table}.`)) return;
  const name = event.name.slice(event.table.length + 1);
  for (const taskEvent of ctx.find(AUTOMATION.task_events, (e) => e.table === event.table && e.event === name)) {
    if (!appliesTo(ctx, taskEvent, event.table, event.row)) continue;
    const task = ctx.get(AUTOMATION.tasks, taskEvent.task);
    if (task && task.enabled === true) runTask(ctx, task, objectName(event.row));
  }
}
