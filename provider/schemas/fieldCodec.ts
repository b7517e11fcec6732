/**
 * Fields whose API form is none of the plain kinds: an ordered header list
 * sent as `Name: Value` lines, an IP list as comma text, a date as Unix
 * seconds, an authorization as a type and a value, a task's webhook inside
 * `owner`. The conversion rides on the field's metadata (`codec`), so the
 * shape stays the one declaration, and `mappingOf` converts every field of a shape,
 * with a codec or plain.
 */
import type { z } from "zod";
import { type FieldMeta, fieldMeta, plainMappingOf, type Shape } from "./common";

export type Row = Record<string, unknown>;

// biome-ignore lint/suspicious/noExplicitAny: a list of codecs of different value types
export interface FieldCodec<T = any> {
  /** The API columns this field is read from (for `fields=`). */
  columns: readonly string[];
  /** The body fields that carry `value`. */
  toApi(value: T): Row;
  /**
   * The input value `row` holds, or undefined when the row does not say.
   * `declared` is the program's value: the part the platform never reads back
   * (a write-only secret, a disabled list entry) comes from it, so it shows no diff.
   */
  fromApi(row: Row, declared: T | undefined): T | undefined;
}

/** Attach to a field with `apiField(schema, column, "json", description, { codec })`. */
export const codecOf = (schema: z.ZodType): FieldCodec | undefined => fieldMeta(schema)?.codec as FieldCodec | undefined;

/** The one mapping of a shape to rows: fields with a codec convert through it and the others as their kind says. */
export function mappingOf<I>(shape: Shape) {
  const codecs = Object.entries(shape).flatMap(([name, schema]) => {
    const codec = codecOf(schema);
    return codec ? [[name, codec] as const] : [];
  });
  const plainShape = Object.fromEntries(Object.entries(shape).filter(([name]) => !codecs.some(([n]) => n === name)));
  const plain = plainMappingOf<I>(plainShape);
  const plainWhere = (keep: (meta: FieldMeta | undefined) => boolean) =>
    plainMappingOf<I>(Object.fromEntries(Object.entries(plainShape).filter(([, schema]) => keep(fieldMeta(schema)))));
  // A write-only field (a password) is sent, never asked for: the platform does not answer it.
  const readable = plainWhere((meta) => meta?.writeOnly !== true);
  // A seed sent at creation and changed through an action afterwards (a VM's cloud-init files, then rows of a table
  // of their own) is not the row's to read back (its column is still asked for: the reads' `fields=` as before).
  const readBack = plainWhere((meta) => !(meta?.createOnly && meta.onChange === "action"));
  return {
    // Several fields may share a column (a task's webhook, VM or user are all its owner): asked for once.
    readFields: [...new Set([readable.readFields, ...codecs.flatMap(([, c]) => c.columns)])].join(","),
    toApiBody(inputs: Partial<I>, mode: "create" | "update" = "create"): Row {
      const body = plain.toApiBody(inputs, mode);
      for (const [name, codec] of codecs) {
        const value = (inputs as Row)[name];
        if (value !== undefined) Object.assign(body, codec.toApi(value));
      }
      return body;
    },
    fromApiRow(row: Row, declared?: Row): Partial<I> {
      const inputs = readBack.fromApiRow(row, declared) as Row;
      for (const [name, codec] of codecs) {
        if (declared && declared[name] === undefined) continue;
        const value = codec.fromApi(row, declared?.[name]);
        if (value !== undefined) inputs[name] = value;
      }
      return inputs as Partial<I>;
    },
  };
}

// ---- the codecs ------------------------------------------------------------------

const text = (v: unknown): string => (v === null || v === undefined ? "" : String(v));

/** An ISO date (or "never") as Unix seconds (0 = never) in `column`, plus `typeColumn` date/never when given. */
export function dateCodec(column: string, typeColumn?: string): FieldCodec<string> {
  return {
    columns: typeColumn ? [column, typeColumn] : [column],
    toApi(value) {
      const seconds = value === "never" ? 0 : Math.floor(Date.parse(value) / 1000);
      return { [column]: seconds, ...(typeColumn ? { [typeColumn]: seconds === 0 ? "never" : "date" } : {}) };
    },
    fromApi(row, declared) {
      if (!(column in row)) return undefined;
      const seconds = Number(row[column]);
      if (!seconds) return typeColumn ? "never" : undefined;
      // The platform keeps seconds: a declared date that falls in the same second reads back as declared.
      if (declared !== undefined && declared !== "never" && Math.floor(Date.parse(declared) / 1000) === seconds) return declared;
      return new Date(seconds * 1000).toISOString();
    },
  };
}

export interface ListedAddress {
  address: string;
  enabled: boolean;
}

/**
 * An IP list as the platform's comma text. The text has no enabled flag, so a
 * disabled entry is not sent (it does not apply) and reads back from the
 * declaration, in its place.
 */
export function ipListCodec(column: string): FieldCodec<ListedAddress[]> {
  return {
    columns: [column],
    toApi: (entries) => ({
      [column]: entries
        .filter((e) => e.enabled)
        .map((e) => e.address)
        .join(","),
    }),
    fromApi(row, declared) {
      if (!(column in row)) return undefined;
      const live = text(row[column])
        .split(/[,\s]+/)
        .filter(Boolean);
      const enabledDeclared = (declared ?? []).filter((e) => e.enabled).map((e) => e.address);
      if (declared !== undefined && JSON.stringify(live) === JSON.stringify(enabledDeclared)) return declared;
      const disabled = (declared ?? []).filter((e) => !e.enabled);
      return [...live.map((address) => ({ address, enabled: true })), ...disabled];
    },
  };
}

export interface HeaderEntry {
  name: string;
  value: string;
}

/** Ordered headers as `Name: Value` lines. */
export function headerLinesCodec(column: string): FieldCodec<HeaderEntry[]> {
  return {
    columns: [column],
    toApi: (headers) => ({ [column]: headers.map((h) => `${h.name}: ${h.value}`).join("\n") }),
    fromApi(row) {
      if (!(column in row)) return undefined;
      return text(row[column])
        .split(/\r?\n/)
        .filter((line) => line.trim() !== "")
        .map((line) => {
          const colon = line.indexOf(":");
          return colon < 0 ? { name: line.trim(), value: "" } : { name: line.slice(0, colon).trim(), value: line.slice(colon + 1).trim() };
        });
    },
  };
}

/** A row key held in a `<table>/<key>` reference column (a task's `owner`). */
export function ownerKeyCodec(column: string, table: string): FieldCodec<string> {
  return {
    columns: [column],
    toApi: (key) => ({ [column]: `${table}/${key}` }),
    fromApi(row) {
      const match = new RegExp(`^${table}/(.+)$`).exec(text(row[column]));
      return match ? match[1] : undefined;
    },
  };
}

/** A value inside a JSON column (a task's message in `settings_args.message`); the column is sent holding that member alone. */
export function jsonMemberCodec(column: string, member: string): FieldCodec<string> {
  return {
    columns: [column],
    toApi: (value) => ({ [column]: { [member]: value } }),
    fromApi(row) {
      const json = row[column];
      const value = json !== null && typeof json === "object" ? (json as Row)[member] : undefined;
      return typeof value === "string" ? value : undefined;
    },
  };
}

/** Weekday flags as a list of the days that are set. */
export const WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export const weekdaysCodec: FieldCodec<Weekday[]> = {
  columns: WEEKDAYS,
  toApi: (days) => Object.fromEntries(WEEKDAYS.map((d) => [d, days.includes(d)])),
  fromApi(row) {
    if (!WEEKDAYS.every((d) => d in row)) return undefined;
    return WEEKDAYS.filter((d) => row[d] === true || row[d] === "true" || row[d] === 1);
  },
};

/** A time of day "HH:MM" (24:00 = the day's end) as seconds after midnight. */
export function timeOfDayCodec(column: string): FieldCodec<string> {
  return {
    columns: [column],
    toApi: (hhmm) => ({ [column]: Number(hhmm.slice(0, 2)) * 3600 + Number(hhmm.slice(3, 5)) * 60 }),
    fromApi(row) {
      if (!(column in row)) return undefined;
      const seconds = Number(row[column]);
      const pad = (n: number) => String(n).padStart(2, "0");
      return `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor((seconds % 3600) / 60))}`;
    },
  };
}
