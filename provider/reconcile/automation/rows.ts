/**
 * Row operations of the automation tables, on the platform API handed in:
 * create from inputs, read back as inputs (one GET per table per run: reads
 * of rows with known fields join the batch of their table), update the
 * changed inputs, delete. A resource supplies its table and its schema's mapping.
 */
import { quote, type PlatformApi, type Row } from "../platform";

export interface RowMapping<I> {
  table: string;
  /** What the row is, in messages: "webhook". */
  what: string;
  readFields: string;
  toApiBody(inputs: Partial<I>, mode?: "create" | "update"): Row;
  fromApiRow(row: Row, declared?: Row): Partial<I>;
}

/** Creates the row; answers its key and the creation's `response` (an API key's secret rides there). */
export async function createRow<I>(api: PlatformApi, m: RowMapping<I>, inputs: I): Promise<{ key: string; response?: Row }> {
  const created = await api.create(m.table, m.toApiBody(inputs, "create"));
  if (!created.$key) throw new Error(`vplatform: creating the ${m.what} '${nameOf(inputs)}' answered no key`);
  return { key: created.$key, response: created.response };
}

/** The inputs the live row holds (only the declared ones when `declared` is given), or undefined when the row is gone. */
export async function readRow<I>(
  api: PlatformApi,
  m: RowMapping<I>,
  key: string,
  declared?: Partial<I>,
): Promise<{ inputs: Partial<I>; row: Row } | undefined> {
  const row = await api.get(m.table, key, m.readFields);
  if (!row) return undefined;
  return { inputs: m.fromApiRow(row, declared as Row | undefined), row };
}

/** PUTs the changed inputs (create-only fields left out); nothing is sent when nothing changed. */
export async function updateRow<I>(api: PlatformApi, m: RowMapping<I>, key: string, changed: Partial<I>): Promise<void> {
  const body = m.toApiBody(changed, "update");
  if (Object.keys(body).length > 0) await api.update(m.table, key, body);
}

/** Deletes the row; a row already gone is fine. */
export function deleteRow(api: PlatformApi, table: string, key: string): Promise<void> {
  return api.remove(table, key);
}

/** The one row of `table` named `name`, or a message naming what was looked for. */
export async function rowByName(api: PlatformApi, table: string, what: string, name: string, fields: string): Promise<Row> {
  const rows = await api.list(table, { filter: `name eq ${quote(name)}`, fields, limit: 2 });
  if (rows.length === 0) throw new Error(`vplatform: no ${what} named '${name}'`);
  if (rows.length > 1) throw new Error(`vplatform: more than one ${what} named '${name}'`);
  return rows[0];
}

const nameOf = (inputs: unknown): string => String((inputs as { name?: unknown }).name ?? "");
