import { type Row, rowsWhere, str } from "../../reconcile/platform";
import { perSession, type Session } from "../../reconcile/session";

/** How long a copy vouches for later checks: the checks of one engine run follow each other within seconds. */
export const COPY_FRESH_MS = 60_000;

interface Copy {
  readAt: number;
  rows: Promise<Row[]>;
}

const copies = perSession(() => new Map<string, Copy>());

/**
 * The engine calls `check` one resource at a time and waits for each answer,
 * so look-ups made in `check` cannot be batched by waiting for more: a batching
 * window makes every check sit it out alone (200 VMs: 200 GETs and 54 s spent
 * in checks). Instead the first check that needs a table reads the few columns
 * the checks use of ALL its rows, once, and the following checks answer from
 * that copy for a minute. A copy only ever vouches (a name is free, a key
 * exists): what it does not vouch for is looked up afresh before anything is
 * refused, so a stale copy never refuses wrongly.
 *
 * Resolves to undefined when the copy cannot be had (the read failed): the
 * caller looks up afresh.
 */
export async function checkCopy(api: Session, table: string, fields: string, now = Date.now()): Promise<Row[] | undefined> {
  const id = JSON.stringify([table, fields]);
  const known = copies(api);
  let copy = known.get(id);
  if (!copy || now - copy.readAt > COPY_FRESH_MS) {
    copy = { readAt: now, rows: api.list(table, { fields }) };
    known.set(id, copy);
  }
  const taken = copy;
  return taken.rows.catch(() => {
    if (known.get(id) === taken) known.delete(id); // the next check reads again
    return undefined;
  });
}

/** The VM columns the name and machine-key checks use: one copy serves both. */
export const VM_CHECK_FIELDS = "$key,name,machine,is_snapshot";

/**
 * Whether a row of `table` has `column` = `value`: vouched for by the run's
 * copy of the table (`copyFields`, which hold `column`), else looked up afresh.
 */
export async function rowExists(api: Session, table: string, column: string, value: string, copyFields = column): Promise<boolean> {
  const copy = await checkCopy(api, table, copyFields);
  if (copy?.some((row) => str(row[column]) === value)) return true;
  return (await rowsWhere(api, table, column, value, "$key")).length > 0;
}
