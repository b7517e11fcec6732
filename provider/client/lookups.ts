import type { ApiClient } from "./api-client";

/** A filter literal: single-quoted, quotes doubled. */
export const quoteLiteral = (value: string) => `'${value.replace(/'/g, "''")}'`;

/** The one row of `table` named `name`, or a clear error (none, or more than one). */
export async function findOneByName<T = Record<string, unknown>>(
  client: ApiClient,
  table: string,
  name: string,
  opts: { extraFilter?: string; fields?: string; what?: string } = {},
): Promise<T> {
  const filter = [`name eq ${quoteLiteral(name)}`, opts.extraFilter].filter(Boolean).join(" and ");
  const rows = await client.list<T>(table, { filter, fields: opts.fields, limit: 2 });
  const what = opts.what ?? table;
  if (rows.length === 0) throw new Error(`no ${what} named '${name}'`);
  if (rows.length > 1) throw new Error(`more than one ${what} named '${name}'`);
  return rows[0];
}
