/**
 * The read side of the table engine: resolving `#` paths through `ref`
 * fields, building the output object for a `fields` selection (views,
 * aliases, functions, sub-lists) and running list queries (filter, sort,
 * offset, limit). Parsing belongs to emulator/query.
 */
import {
  applyFieldFunction,
  matchesFilter,
  parseFieldsCached,
  parseFilterCached,
  parseSortCached,
  sortRows,
  type FieldSelection,
} from "../query";
import type { FieldDef, Row, TableDef } from "../model/types";
import type { EmulatorContext } from "./context";
import { checkFilter, checkSelection, checkSort } from "./knownFields";

export interface ListQuery {
  fields?: string;
  filter?: string;
  sort?: string;
  limit?: number;
  offset?: number;
  /** The rows the caller may list (absent: every row). */
  visible?: (row: Row) => boolean;
}

/**
 * Output rule for keys in rows: a key is answered as stored — a JSON number in integer-keyed tables,
 * a string in string-keyed ones — as the real platform does (Go clients decode `$key` as an int).
 * Only creation answers spell `$key` as a string (see `creationBody` in write.ts).
 */
export function outputKey(key: unknown): unknown {
  return key;
}

/** The value of a field of a row, following `ref` fields for every further segment. */
export function resolvePath(ctx: EmulatorContext, def: TableDef, row: Row, path: readonly string[]): unknown {
  let table = def;
  let current: Row | undefined = row;
  for (let i = 0; i < path.length; i++) {
    if (!current) return null;
    const name = path[i];
    if (name === "$key") return i === path.length - 1 ? current.$key : null;
    if (name === "$display") return current.name ?? current.$key;
    const field: FieldDef | undefined = Object.hasOwn(table.fields, name) ? table.fields[name] : undefined;
    if (!field || field.hidden) return null;
    const value = field.compute ? field.compute(ctx, current) : field.type === "rows" ? relatedRows(ctx, field, current) : current[name];
    if (i === path.length - 1) return value ?? null;
    // A reference to a table this emulator does not have reads as null past it (knownFields accepts such paths).
    const target = field.ref ? ctx.tables.get(field.ref)?.def : undefined;
    if (field.type === "rows") {
      const rest = path.slice(i + 1);
      return target ? (value as Row[]).map((r) => resolvePath(ctx, target, r, rest)) : [];
    }
    if (field.type !== "row" || !target || value === null || value === undefined) return null;
    table = target;
    current = ctx.get(target.name, value);
  }
  return null;
}

function relatedRows(ctx: EmulatorContext, field: FieldDef, row: Row): Row[] {
  const via = field.via!;
  return ctx.find(field.ref!, (r) => r[via] === row.$key);
}

/** The field definition at the end of a path (for display labels and sub-selections). */
function fieldAt(ctx: EmulatorContext, def: TableDef, path: readonly string[]): FieldDef | undefined {
  let table = def;
  for (let i = 0; i < path.length; i++) {
    const field = Object.hasOwn(table.fields, path[i]) ? table.fields[path[i]] : undefined;
    if (!field) return undefined;
    if (i === path.length - 1) return field;
    const target = field.ref ? ctx.tables.get(field.ref)?.def : undefined;
    if (!target) return undefined;
    table = target;
  }
  return undefined;
}

/** Field names of a view (`$key` first). */
export function viewFields(def: TableDef, view: "all" | "most" | "summary" | "dashboard" | "default"): string[] {
  const names = Object.entries(def.fields)
    .filter(([, f]) => !f.hidden)
    .filter(([name, f]) => {
      if (view === "all") return true;
      if (view === "summary") return f.summary;
      if (view === "default") return def.defaultFields ? def.defaultFields.includes(name) : f.type !== "rows";
      return f.type !== "rows" && !f.notInMost;
    })
    .map(([name]) => name);
  return ["$key", ...names];
}

/** Builds the output object of one row for a parsed selection (empty = the default field set). */
export function project(ctx: EmulatorContext, def: TableDef, row: Row, selection: FieldSelection[], depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (selection.length === 0) {
    for (const name of viewFields(def, "default")) out[name] = outputValue(ctx, def, row, name, undefined, depth);
    return out;
  }
  for (const entry of selection) {
    if (entry.kind === "view") {
      const view = entry.view;
      for (const name of viewFields(def, view === "dashboard" ? "most" : view)) {
        out[name] = outputValue(ctx, def, row, name, view === "dashboard" && depth < 2 ? "dashboard" : undefined, depth);
      }
      continue;
    }
    let value = resolvePath(ctx, def, row, entry.path);
    const field = fieldAt(ctx, def, entry.path);
    if (entry.sub && field?.ref) {
      const target = ctx.store(field.ref).def;
      if (field.type === "rows") {
        value = (Array.isArray(value) ? (value as Row[]) : []).map((r) => project(ctx, target, r, entry.sub!, depth + 1));
      } else {
        const targetRow = value === null ? undefined : ctx.get(field.ref, value);
        value = targetRow ? project(ctx, target, targetRow, entry.sub, depth + 1) : null;
      }
    } else if (field?.type === "rows" && Array.isArray(value)) {
      value = (value as Row[]).map((r) => outputKey(r.$key));
    } else if (entry.path[entry.path.length - 1] === "$key") {
      value = outputKey(value);
    }
    if (entry.fn) {
      const labels =
        field?.enum && !("test" in field.enum && typeof field.enum.test === "function")
          ? (field.enum as Record<string, string>)
          : undefined;
      value = applyFieldFunction(entry.fn, value, { labels });
    }
    out[entry.alias] = value ?? null;
  }
  return out;
}

/** One field for a view; the dashboard view expands `row` references into nested objects. */
function outputValue(ctx: EmulatorContext, def: TableDef, row: Row, name: string, mode: "dashboard" | undefined, depth: number): unknown {
  if (name === "$key") return outputKey(row.$key);
  const field = def.fields[name];
  const value = resolvePath(ctx, def, row, [name]);
  if (mode === "dashboard" && field.type === "row" && field.ref && value !== null) {
    const target = ctx.get(field.ref, value);
    if (target) return project(ctx, ctx.store(field.ref).def, target, [{ kind: "view", view: "dashboard" }], depth + 1);
  }
  if (field.type === "rows" && Array.isArray(value)) return (value as Row[]).map((r) => outputKey(r.$key));
  return value;
}

/** Runs a list query; throws QueryError on malformed options. */
export function listRows(ctx: EmulatorContext, def: TableDef, query: ListQuery): Record<string, unknown>[] {
  const selection = parseFieldsCached(query.fields ?? "");
  checkSelection(ctx, def, selection);
  let rows = query.visible ? ctx.all(def.name).filter(query.visible) : ctx.all(def.name);
  if (query.filter && query.filter.trim() !== "") {
    const expr = parseFilterCached(query.filter);
    checkFilter(ctx, def, expr);
    const context = { now: ctx.nowSeconds() };
    rows = rows.filter((row) => matchesFilter(expr, (path) => resolvePath(ctx, def, row, path), context));
  }
  if (query.sort && query.sort.trim() !== "") {
    const keys = parseSortCached(query.sort);
    checkSort(ctx, def, keys);
    rows = sortRows(rows, keys, (row, path) => resolvePath(ctx, def, row, path));
  }
  const offset = query.offset ?? 0;
  const limit = query.limit ?? 0;
  rows = rows.slice(offset, limit > 0 ? offset + limit : undefined);
  return rows.map((row) => project(ctx, def, row, selection));
}

export function readRow(ctx: EmulatorContext, def: TableDef, row: Row, fields: string | undefined): Record<string, unknown> {
  const selection = parseFieldsCached(fields ?? "");
  checkSelection(ctx, def, selection);
  return project(ctx, def, row, selection);
}
