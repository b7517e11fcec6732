/**
 * Persistence of the emulator state in `<dataDir>`: a snapshot (`state.json`) plus a write-ahead
 * journal (`journal.ndjson`, see journal.ts) that every row change is appended to before the answer.
 * Compaction writes the snapshot to a temporary file, renames it over the old one (a crash leaves
 * the old or the new snapshot, never a torn one) and then empties the journal; it runs a while after
 * changes (debounced), when the journal grows large, and at shutdown. Sessions, rate-limit windows,
 * faults and counters are not saved. On load, the journal is replayed over the snapshot and
 * operations that were in flight are settled (see settleInFlight).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { Journal, replayJournal } from "./journal";
import { dirname, join } from "node:path";
import type { EmulatorContext } from "../engine/context";
import { BUSY_STATUSES, stoppedFields } from "../services/compute/machineState";
import { createMachineFor } from "../services/compute/machines";
import type { Row } from "../model/types";
import { NETWORK } from "../model/names/network";
import { CLUSTER } from "../model/names/cluster";
import { COMPUTE } from "../model/names/compute";

export const STATE_FILE = "state.json";
const FORMAT = 1;
/** A snapshot is written this long after the first change not yet in one (the journal holds them meanwhile). */
export const COMPACT_DEBOUNCE_MS = 1000;
/** ... or as soon as the journal holds this many bytes. */
export const COMPACT_JOURNAL_BYTES = 4 * 1024 * 1024;

/** Every saved table's rows and key counter. */
export type SavedTables = Record<string, { nextKey: number; rows: Row[] }>;

interface SavedState {
  format: number;
  savedAt: number;
  tables: SavedTables;
}

/** The tables a state holds (transient ones, such as in-flight jobs, are never saved). */
export function savedTables(ctx: EmulatorContext): SavedTables {
  const tables: SavedTables = {};
  for (const [name, store] of ctx.tables) {
    if (store.def.transient) continue;
    tables[name] = { nextKey: store.nextKey, rows: [...store.rows.values()] };
  }
  return tables;
}

export function serialize(ctx: EmulatorContext): string {
  return JSON.stringify({ format: FORMAT, savedAt: Date.now(), tables: savedTables(ctx) } satisfies SavedState);
}

/** Puts saved tables into the context's registered ones (tables no longer registered are skipped). */
function restoreTables(ctx: EmulatorContext, tables: SavedTables): void {
  for (const [name, saved] of Object.entries(tables)) {
    const store = ctx.tables.get(name);
    if (!store) continue;
    store.rows = new Map(saved.rows.map((row) => [row.$key, row]));
    store.nextKey = saved.nextKey;
  }
}

/** Replaces the whole saved state of a running context by `tables` (a named snapshot), settled as after a restart. */
export function replaceState(ctx: EmulatorContext, tables: SavedTables): void {
  for (const store of ctx.tables.values()) {
    if (store.def.transient) continue;
    store.rows = new Map();
    store.nextKey = store.def.firstKey ?? 1;
  }
  restoreTables(ctx, tables);
  keepKeyCountersAhead(ctx);
  settleInFlight(ctx);
}

/**
 * Loads the snapshot and replays the journal into the context's registered tables; returns false
 * when there is no saved state at all.
 */
export function loadState(ctx: EmulatorContext, dataDir: string): boolean {
  const file = join(dataDir, STATE_FILE);
  const hasSnapshot = existsSync(file);
  if (hasSnapshot) {
    const state = JSON.parse(readFileSync(file, "utf8")) as SavedState;
    if (state.format !== FORMAT) throw new Error(`${file}: unsupported state format ${state.format}`);
    restoreTables(ctx, state.tables);
  }
  const replayed = replayJournal(ctx, dataDir);
  if (!hasSnapshot && replayed === 0) return false;
  keepKeyCountersAhead(ctx);
  addRuntimeRows(ctx);
  settleInFlight(ctx);
  return true;
}

/** State saved by an older emulator: vnets get their machine (stopped) and clusters their status row. */
function addRuntimeRows(ctx: EmulatorContext): void {
  for (const vnet of ctx.all(NETWORK.vnets)) {
    if (vnet.machine === undefined || vnet.machine === null) vnet.machine = createMachineFor(ctx, vnet, "vnet");
  }
  for (const cluster of ctx.all(CLUSTER.clusters)) {
    if (ctx.get(CLUSTER.cluster_status, cluster.$key)) continue;
    ctx.insert(CLUSTER.cluster_status, {
      $key: cluster.$key,
      cluster: cluster.$key,
      status: typeof cluster.status === "string" ? cluster.status : "online",
      status_info: "",
    });
    cluster.status = cluster.$key;
  }
}

/** A key once given out is never given again: each counter stays above every key its table holds. */
function keepKeyCountersAhead(ctx: EmulatorContext): void {
  for (const store of ctx.tables.values()) {
    for (const key of store.rows.keys()) if (typeof key === "number" && key >= store.nextKey) store.nextKey = key + 1;
  }
}

/** Timers do not survive a restart: transitional states jump to where they were heading. */
export function settleInFlight(ctx: EmulatorContext): void {
  for (const status of ctx.all(COMPUTE.machine_status)) {
    if (!BUSY_STATUSES.has(String(status.status))) continue;
    const on = status.powerstate === true && status.status !== "stopping";
    Object.assign(status, on ? { status: "running", running: true, state: "online" } : stoppedFields());
  }
  for (const table of [COMPUTE.machine_drive_status, COMPUTE.machine_nic_status]) {
    for (const status of ctx.all(table)) {
      if (status.status !== "hotplugging") continue;
      const parent = ctx.get(table === COMPUTE.machine_drive_status ? COMPUTE.machine_drives : COMPUTE.machine_nics, status.$key);
      const on = parent ? ctx.get(COMPUTE.machine_status, parent.machine)?.powerstate === true : false;
      status.status = table === COMPUTE.machine_drive_status ? (on ? "online" : "offline") : on ? "up" : "down";
    }
  }
}

/** The whole state into `<dataDir>/state.json`, atomically. */
export function writeAtomically(dataDir: string, text: string): void {
  writeFileAtomically(join(dataDir, STATE_FILE), text);
}

/** Writes a temporary file and renames it over `target`: a crash leaves the old or the new file, never a torn one. */
export function writeFileAtomically(target: string, text: string): void {
  mkdirSync(dirname(target), { recursive: true });
  const temporary = `${target}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, target);
}

/**
 * Journal plus snapshot: `changed(table, key)` after each row change (journaled at the next
 * `commit()`, which the server runs before every answer), `changed()` for bookkeeping that only the
 * next snapshot needs, `flush()` to compact now (start, shutdown).
 */
export class Persister {
  private timer: NodeJS.Timeout | undefined;
  private readonly journal: Journal;

  constructor(
    private readonly ctx: EmulatorContext,
    private readonly dataDir: string,
    opts: { fsync?: boolean } = {},
  ) {
    mkdirSync(dataDir, { recursive: true });
    this.journal = new Journal(ctx, dataDir, opts.fsync);
  }

  changed(table?: string, key?: string | number): void {
    if (table !== undefined && key !== undefined) this.journal.changed(table, key);
    this.timer ??= setTimeout(() => this.flush(), COMPACT_DEBOUNCE_MS);
  }

  /** Makes every change so far durable; called before each answer. */
  commit(): void {
    this.journal.commit();
    if (this.journal.size >= COMPACT_JOURNAL_BYTES) this.flush();
  }

  /** Compaction: the whole state into the snapshot, then an empty journal. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.journal.commit();
    writeAtomically(this.dataDir, serialize(this.ctx));
    this.journal.truncate();
  }

  close(): void {
    this.flush();
    this.journal.close();
  }
}
