/**
 * The emulator context in memory: the implementation of `EmulatorContext` (declared with the table
 * types in model/types.ts, which this module imports and never the other way round) — the
 * database, an event bus, a clock with the time scale and a scheduler. It knows nothing about HTTP.
 */
import { randomBytes } from "node:crypto";
import { EventEmitter } from "node:events";
import type { EmulatorContext, EmulatorEvent, Row, RowKey, Service, TableDef, TableStore } from "../model/types";
import { RealTimeClock, type TransitionClock } from "./clock";
import { ApiError } from "../model/errors";
import { type BusEvent, rowEvent } from "../model/events";

export type { EmulatorContext, EmulatorEvent, TableStore } from "../model/types";

export class InMemoryContext implements EmulatorContext {
  readonly tables = new Map<string, TableStore>();
  readonly events = new EventEmitter();
  /** Without table and key: bookkeeping that only the next snapshot needs (see persistence/store.ts). */
  onChange: (table?: string, key?: RowKey) => void = () => {};
  beforeAnswer: () => void = () => {};

  constructor(
    /** Multiplier on the duration of long operations (tests use 0.01). */
    readonly timeScale = 1,
    /** Runs the delayed transitions: on timers, or when a test advances the manual clock. */
    readonly clock: TransitionClock = new RealTimeClock(timeScale),
  ) {
    this.events.setMaxListeners(100);
  }

  /** Milliseconds since the epoch, by the clock: the manual clock's time moves only when a test advances it. */
  now(): number {
    return this.clock.now();
  }

  nowSeconds(): number {
    return Math.floor(this.now() / 1000);
  }

  // ---- tables -------------------------------------------------------------

  registerTables(defs: TableDef[]): void {
    for (const def of defs) {
      if (this.tables.has(def.name)) throw new Error(`table ${def.name} registered twice`);
      this.tables.set(def.name, { def, rows: new Map(), nextKey: def.firstKey ?? 1 });
    }
  }

  registerService(service: Service): void {
    this.registerTables(service.tables);
    service.setup?.(this);
  }

  /** Runs every table's seed function (only on an empty state). */
  seed(): void {
    for (const store of this.tables.values()) store.def.seed?.(this);
  }

  store(table: string): TableStore {
    const store = this.tables.get(table);
    if (!store) throw new ApiError(404, `table '${table}' not found`);
    return store;
  }

  /** Normalizes an incoming key ("42" → 42 for integer tables). */
  normalizeKey(table: string, key: unknown): RowKey | undefined {
    const store = this.store(table);
    if (store.def.keyType === "int") {
      const n = typeof key === "number" ? key : typeof key === "string" && /^\d+$/.test(key) ? Number(key) : NaN;
      return Number.isSafeInteger(n) ? n : undefined;
    }
    return typeof key === "string" || typeof key === "number" ? String(key) : undefined;
  }

  get(table: string, key: unknown): Row | undefined {
    const k = this.normalizeKey(table, key);
    return k === undefined ? undefined : this.store(table).rows.get(k);
  }

  all(table: string): Row[] {
    return [...this.store(table).rows.values()];
  }

  find(table: string, predicate: (row: Row) => boolean): Row[] {
    return this.all(table).filter(predicate);
  }

  /** Stores a row as given (no validation: hooks and seeds use this). Assigns `$key` when absent. */
  insert(table: string, row: Record<string, unknown>): Row {
    const store = this.store(table);
    let key = row.$key as RowKey | undefined;
    if (key === undefined) {
      key = store.def.keyType === "int" ? store.nextKey : (store.def.newKey?.(this, row) ?? randomHex(40));
    }
    if (typeof key === "number") store.nextKey = Math.max(store.nextKey, key + 1);
    const stored = { ...row, $key: key } as Row;
    store.rows.set(key, stored);
    this.publish(rowEvent(table, "created"), table, stored);
    return stored;
  }

  /** Merges changes into a stored row in place and returns it. */
  update(table: string, key: RowKey, changes: Record<string, unknown>): Row {
    const row = this.store(table).rows.get(key);
    if (!row) throw new ApiError(404, `row ${table}/${key} not found`);
    Object.assign(row, changes);
    this.publish(rowEvent(table, "updated"), table, row);
    return row;
  }

  remove(table: string, key: RowKey): Row | undefined {
    const store = this.store(table);
    const row = store.rows.get(key);
    if (!row) return undefined;
    store.rows.delete(key);
    this.publish(rowEvent(table, "deleted"), table, row);
    return row;
  }

  emit(name: BusEvent, table: string, row: Row, extra?: Record<string, unknown>): void {
    this.publish(name, table, row, extra);
  }

  /** Emits an event on the bus and marks the state changed: a service's, or a row change of any table. */
  private publish(name: string, table: string, row: Row, extra?: Record<string, unknown>): void {
    this.events.emit(name, { name, table, row, extra } satisfies EmulatorEvent);
    this.events.emit("*", { name, table, row, extra } satisfies EmulatorEvent);
    this.onChange(table, row.$key);
  }

  // ---- scheduler ------------------------------------------------------------

  /**
   * Runs `fn` after `ms × timeScale` milliseconds, but not sooner than `minRealMs` (a floor for repeating
   * timers, which a zero time scale would otherwise make spin); the returned function cancels it.
   */
  schedule(ms: number, fn: () => void, minRealMs = 0): () => void {
    return this.clock.schedule(ms, fn, minRealMs);
  }

  /** Number of pending delayed changes (persistence settles them on restart). */
  pendingTimers(): number {
    return this.clock.pending();
  }

  /** Cancels every scheduled change and drops listeners. */
  close(): void {
    this.clock.cancelAll();
    this.events.removeAllListeners();
  }
}

export function randomHex(length: number): string {
  return randomBytes(Math.ceil(length / 2))
    .toString("hex")
    .slice(0, length);
}
