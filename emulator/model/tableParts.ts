/**
 * What many tables declare alike, written once: the rows their users name (a unique name, a description, an
 * enabled switch), their timestamps, and the tables the API only reads. Each call answers fresh objects, so a
 * table never shares a definition with another.
 */
import type { FieldDef, Operation, TableDef } from "./types";

/** Integer keys and a name unique in the table: a second row of that name answers 409 `<noun> with that name exists`. */
export function uniqueNames(noun: string): Pick<TableDef, "keyType" | "unique"> {
  return { keyType: "int", unique: { field: "name", message: `${noun} with that name exists` } };
}

/** The name a row is given (required, at most 128 characters, in every answer). */
export function nameField(): FieldDef {
  return { type: "string", required: true, maxLength: 128, summary: true };
}

/** A row's name and a free text about it (most named rows begin so) and, with `enabled`, its on/off switch. */
export function namedFields({ enabled = false } = {}): Record<string, FieldDef> {
  return { name: nameField(), description: descriptionField(), ...(enabled ? { enabled: enabledField() } : {}) };
}

/** The fields of a table the API only reads, each marked read-only. */
export function readOnlyFields(fields: Record<string, FieldDef>): Record<string, FieldDef> {
  return Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, { ...field, readOnly: true }]));
}

/** A free text, empty unless given. */
export function descriptionField(): FieldDef {
  return { type: "text", default: "" };
}

/** A switch that is on unless turned off. */
export function enabledField(): FieldDef {
  return { type: "bool", default: true };
}

/** When the row was created and last changed (set by the engine). */
export function timestampFields(): { created: FieldDef; modified: FieldDef } {
  return { created: { type: "created", readOnly: true }, modified: { type: "modified", readOnly: true } };
}

/** A table whose rows the API lists and reads, and writes only by `writes` (none: a read-only table). */
export function listedRows(keyType: TableDef["keyType"], ...writes: Operation[]): Pick<TableDef, "keyType" | "operations"> {
  return { keyType, operations: ["list", "get", ...writes] };
}

/** A table of that name: what it holds (its `$table` description) and the rest of its definition. */
export function table(name: string, def: Omit<TableDef, "name">): TableDef {
  return { name, ...def };
}
