import { currentDeadline, latest, withDeadline, type OperationDeadline } from "./operationDeadline";
import { filterLiteral } from "./query-string";
import type { Row } from "./row";

type ListFn = (table: string, query: { filter: string; fields: string; limit?: number }) => Promise<Row[]>;

/** Values per GET: keeps the query string short. */
const VALUES_PER_READ = 100;

interface Pending {
  values: Map<string, { resolve(rows: Row[]): void; reject(err: unknown): void }[]>;
  deadlines: OperationDeadline[];
  opened: number;
  timer?: NodeJS.Timeout;
}

/** A batch waits at most this long for more reads (a refresh hands them over for as long as it lasts). */
const MAX_WAIT_MS = 3000;

/**
 * Batched reads (the DataLoader pattern): reads of one table by one column
 * with the same fields, asked while such reads keep coming (each within
 * `windowMs` of the last: the engine hands them over one by one), go out as
 * ONE filtered list GET (`machine eq 5 or machine eq 7 ...`). A refresh of N
 * drives, the machine-key checks of a preview and the owner look-ups of many
 * hardware creates each cost a few requests instead of one per resource.
 */
export class BatchReader {
  readonly #pending = new Map<string, Pending>();
  /** GETs sent (for tests and the bench). */
  reads = 0;

  constructor(
    private readonly list: ListFn,
    private readonly windowMs = 250,
  ) {}

  /** The rows of `table` whose `column` equals `value` (a plain column: `$key`, `machine`, ...). */
  load(table: string, column: string, value: string, fields: string): Promise<Row[]> {
    const id = JSON.stringify([table, column, fields]);
    let batch = this.#pending.get(id);
    if (!batch) {
      batch = { values: new Map(), deadlines: [], opened: Date.now() };
      this.#pending.set(id, batch);
    }
    const open = batch;
    // The batch goes out once reads stop coming for `windowMs`, or is full, or has waited long enough.
    clearTimeout(open.timer);
    const flush = () => {
      this.#pending.delete(id);
      void this.#flush(table, column, fields, open);
    };
    const deadline = currentDeadline();
    if (deadline) batch.deadlines.push(deadline);
    const waiting = batch.values.get(value) ?? [];
    batch.values.set(value, waiting);
    const promise = new Promise<Row[]>((resolve, reject) => waiting.push({ resolve, reject }));
    if (batch.values.size >= VALUES_PER_READ) flush();
    else batch.timer = setTimeout(flush, Math.max(0, Math.min(this.windowMs, batch.opened + MAX_WAIT_MS - Date.now())));
    return promise;
  }

  async #flush(table: string, column: string, fields: string, batch: Pending): Promise<void> {
    const values = [...batch.values.keys()];
    const selected = fields.split(",").some((f) => f.trim() === column) ? fields : `${column},${fields}`;
    const shared = latest(batch.deadlines);
    for (let i = 0; i < values.length; i += VALUES_PER_READ) {
      const chunk = values.slice(i, i + VALUES_PER_READ);
      try {
        this.reads++;
        const query = { filter: chunk.map((v) => `${column} eq ${filterLiteral(v)}`).join(" or "), fields: selected };
        const rows = await withDeadline(shared, () => this.list(table, query));
        const byValue = new Map<string, Row[]>();
        for (const row of rows) {
          const v = String(row[column] ?? "");
          byValue.set(v, [...(byValue.get(v) ?? []), row]);
        }
        for (const v of chunk) for (const w of batch.values.get(v)!) w.resolve(byValue.get(v) ?? []);
      } catch (err) {
        for (const v of chunk) for (const w of batch.values.get(v)!) w.reject(err);
      }
    }
  }
}
