/**
 * Row operations of the automation tables, on the platform API handed in:
 * create from inputs, read back as inputs (one GET per table per run: reads
 * of rows with known fields join the batch of their table), update the
 * changed inputs, delete. A resource supplies its table and its schema's mapping.
 *
 * A create never trusts a lost answer: it goes through insertRow, which
 * looks for the row an interrupted attempt made before sending again (no
 * duplicate, no orphan), found by the row's identity.
 */
import { hasTag, taggedDescription, taggedFilter, withoutTag } from "../createMarker";
import { insertRow, isAmbiguousFailure } from "../insertRow";
import { quoteLiteral } from "../../client/query-string";
import type { PlatformApi, Row } from "../platform";
import type { Clock } from "../waitFor";

export interface RowMapping<I> {
  table: string;
  /** What the row is, in messages: "webhook". */
  what: string;
  readFields: string;
  /** `whole`: every input, for a field whose form needs another (an event trigger's object needs its type). */
  toApiBody(inputs: Partial<I>, mode?: "create" | "update", whole?: Partial<I>): Row;
  fromApiRow(row: Row, declared?: Row): Partial<I>;
  /**
   * How a create recognizes the row an earlier attempt made:
   * - `marker`: the marker tag appended to `description` (stripped again on read);
   * - `name`: the unique name, for a table with no field to tag (users); looked for only after a
   *   failed send, never before the first (a row of that name made by someone else is no row of ours);
   * - `content`: the row's own fields; a row with the same fields does the same (an event trigger).
   */
  identity: "marker" | "name" | "content";
  /**
   * The platform refuses a second row of the name (409): a row an earlier attempt made shows itself
   * as that conflict, so the first send needs no look before it; and a replacement keeping the name deletes first.
   */
  namesUniqueOnPlatform: boolean;
}

export interface CreateOptions {
  /** The resource's marker (stable across runs; see createMarker.ts). */
  marker: string;
  /** The create's time limit (timeouts.create), in ms. */
  budgetMs: number;
  clock?: Clock;
  /**
   * Whether to look for a row of an earlier attempt before the first send; default: unless names are unique on the
   * platform (such a row shows itself as the name conflict). False when none can exist (its parent was made now).
   */
  lookFirst?: boolean;
}

export interface CreatedAutomationRow {
  key: string;
  /** The creation's `response` (an API key's secret rides there); absent when the row was recovered. */
  response?: Row;
  /** The row was made by an earlier attempt whose answer was lost, not by this request. */
  recovered: boolean;
}

/** Creates the row once, whatever the network does (see insertRow). */
export async function createRow<I>(api: PlatformApi, m: RowMapping<I>, inputs: I, opts: CreateOptions): Promise<CreatedAutomationRow> {
  const fields = m.toApiBody(inputs, "create");
  const body = m.identity === "marker" ? { ...fields, description: taggedDescription(fields.description, opts.marker) } : fields;
  // A row found by its name alone is ours only once a send of this create may have made it: a name already
  // taken at the first send is someone else's row (a user of that name), never one to take over.
  let mayHaveMade = m.identity !== "name";
  const send = async () => {
    try {
      return await api.create(m.table, body);
    } catch (err) {
      if (isAmbiguousFailure(err)) mayHaveMade = true;
      throw err;
    }
  };
  const inserted = await insertRow(
    api,
    {
      table: m.table,
      body,
      what: describe(m, inputs),
      findOurs: async () => (mayHaveMade ? findOurs(api, m, body, opts.marker) : undefined),
      lookFirst: opts.lookFirst ?? !m.namesUniqueOnPlatform,
      send,
    },
    opts.budgetMs,
    opts.clock,
  );
  if (!inserted.$key) throw new Error(`vplatform: creating the ${describe(m, inputs)} answered no key`);
  return { key: inserted.$key, response: inserted.recovered ? undefined : inserted.response, recovered: inserted.recovered };
}

async function findOurs<I>(api: PlatformApi, m: RowMapping<I>, body: Row, marker: string): Promise<Row | undefined> {
  if (m.identity === "marker") {
    const rows = await api.list(m.table, { filter: taggedFilter(marker), fields: "$key,description", limit: 2 });
    return rows.find((r) => hasTag(r, marker));
  }
  const filter = m.identity === "name" ? `name eq ${quoteLiteral(String(body.name))}` : contentFilter(body);
  return (await api.list(m.table, { filter, fields: "$key", limit: 1 }))[0];
}

/** `a eq 1 and b eq 'x' and c eq null`: every plain field of the body (keys, digits only, bare as the platform compares them). */
export function contentFilter(body: Row): string {
  return Object.entries(body)
    .filter(([, v]) => v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean")
    .map(([k, v]) => `${k} eq ${typeof v === "string" && !/^\d+$/.test(v) ? quoteLiteral(v) : String(v)}`)
    .join(" and ");
}

/** The inputs the live row holds (only the declared ones when `declared` is given), or undefined when the row is gone. */
export async function readRow<I>(
  api: PlatformApi,
  m: RowMapping<I>,
  key: string,
  declared?: Partial<I>,
): Promise<{ inputs: Partial<I>; row: Row } | undefined> {
  const found = await api.get(m.table, key, m.readFields);
  if (!found) return undefined;
  const row = m.identity === "marker" ? withoutTag(found) : found;
  return { inputs: m.fromApiRow(row, declared as Row | undefined), row };
}

/** PUTs the `changed` inputs of `news` (create-only fields left out); nothing is sent when nothing changed. */
export async function updateRow<I>(
  api: PlatformApi,
  m: RowMapping<I>,
  key: string,
  news: I,
  changed: readonly (keyof I & string)[],
): Promise<void> {
  const picked = Object.fromEntries(changed.map((field) => [field, news[field]])) as Partial<I>;
  const body = m.toApiBody(picked, "update", news);
  if (Object.keys(body).length > 0) await api.update(m.table, key, body);
}

/** Deletes the row; a row already gone is fine. */
export function deleteRow(api: PlatformApi, table: string, key: string): Promise<void> {
  return api.remove(table, key);
}

/** The one row of `table` named `name`, or a message naming what was looked for. */
export async function rowByName(api: PlatformApi, table: string, what: string, name: string, fields: string): Promise<Row> {
  const rows = await api.list(table, { filter: `name eq ${quoteLiteral(name)}`, fields, limit: 2 });
  if (rows.length === 0) throw new Error(`vplatform: no ${what} named '${name}'`);
  if (rows.length > 1) throw new Error(`vplatform: more than one ${what} named '${name}'`);
  return rows[0];
}

/** "webhook 'alerts'", or the kind alone for a row without a name (an event trigger). */
function describe<I>(m: RowMapping<I>, inputs: I): string {
  const name = (inputs as { name?: unknown }).name;
  return typeof name === "string" ? `${m.what} '${name}'` : m.what;
}
