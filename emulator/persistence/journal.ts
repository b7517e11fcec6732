/**
 * The write-ahead journal of a persisted emulator: `<dataDir>/journal.ndjson`, one JSON line per
 * changed row — `{t, k, r, n}`: table, key, the row as it now is (`r` absent = deleted) and the
 * table's key counter. `commit()` appends every row changed since the last commit in ONE write(2)
 * and runs before any answer leaves the server (see server/app.ts), so a write answered 2xx is in
 * the kernel before the client hears of it and survives a SIGKILL of the emulator (`fsync: true`
 * also makes it survive a power loss, at a cost `npm run bench:emulator` prints).
 *
 * Entries hold whole rows, so replaying them is idempotent: a journal replayed over a newer
 * snapshot ends in the same state. Compaction (store.ts) writes the snapshot, then empties the
 * journal. A torn last line (killed mid-write) was never acknowledged and is skipped.
 */
import { closeSync, existsSync, fsyncSync, ftruncateSync, openSync, readFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { EmulatorContext } from "../engine/context";
import type { Row, RowKey } from "../model/types";

export const JOURNAL_FILE = "journal.ndjson";

interface Entry {
  t: string;
  k: RowKey;
  r?: Row;
  n: number;
}

export class Journal {
  private readonly fd: number;
  private readonly dirty = new Map<string, Set<RowKey>>();
  private pending: NodeJS.Immediate | undefined;
  /** Bytes appended since the last compaction. */
  size = 0;

  constructor(
    private readonly ctx: EmulatorContext,
    dataDir: string,
    private readonly fsync = false,
  ) {
    this.fd = openSync(join(dataDir, JOURNAL_FILE), "a");
  }

  /** Marks a row changed; changes made outside a request (timers) are committed on the next turn. */
  changed(table: string, key: RowKey): void {
    const store = this.ctx.tables.get(table);
    if (!store || store.def.transient) return;
    let keys = this.dirty.get(table);
    if (!keys) {
      keys = new Set();
      this.dirty.set(table, keys);
    }
    keys.add(key);
    this.pending ??= setImmediate(() => this.commit());
  }

  /** Appends the current value of every row changed since the last commit. */
  commit(): void {
    if (this.pending) clearImmediate(this.pending);
    this.pending = undefined;
    if (this.dirty.size === 0) return;
    let text = "";
    for (const [table, keys] of this.dirty) {
      const store = this.ctx.store(table);
      for (const k of keys) {
        const row = store.rows.get(k);
        text += `${JSON.stringify({ t: table, k, ...(row ? { r: row } : {}), n: store.nextKey } satisfies Entry)}\n`;
      }
    }
    this.dirty.clear();
    const bytes = Buffer.from(text);
    writeSync(this.fd, bytes);
    if (this.fsync) fsyncSync(this.fd);
    this.size += bytes.length;
  }

  /** Empties the journal once its contents are in a snapshot. */
  truncate(): void {
    ftruncateSync(this.fd, 0);
    if (this.fsync) fsyncSync(this.fd);
    this.size = 0;
  }

  close(): void {
    this.commit();
    closeSync(this.fd);
  }
}

/** Applies a journal left by a previous run onto the loaded snapshot; returns the number of entries. */
export function replayJournal(ctx: EmulatorContext, dataDir: string): number {
  const file = join(dataDir, JOURNAL_FILE);
  if (!existsSync(file)) return 0;
  let applied = 0;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line === "") continue;
    let entry: Entry;
    try {
      entry = JSON.parse(line) as Entry;
    } catch {
      break; // a torn last line: that write was never answered
    }
    const store = ctx.tables.get(entry.t);
    if (!store) continue;
    if (entry.r) store.rows.set(entry.k, entry.r);
    else store.rows.delete(entry.k);
    store.nextKey = Math.max(store.nextKey, entry.n);
    applied++;
  }
  return applied;
}
