/**
 * Table definitions: ONE data structure per table drives everything the generic
 * engine does with it — input validation and coercion (types, required, enums,
 * bounds, patterns), defaults, read-only and hidden fields, the default field
 * set and the `most` / `summary` views, `#` joins (through `ref`), the
 * `$table` schema output, owner/parent permission fields, lifecycle hooks and,
 * for `*_actions` tables, per-action handlers.
 *
 * A service describes its tables with these types and hands them to
 * `EmulatorContext.registerService`; it never touches the HTTP layer.
 *
 * This module is the bottom of the emulator's layers: it imports nothing of the emulator.
 * `EmulatorContext` is declared here as the interface tables and hooks see; engine/context.ts
 * implements it (`InMemoryContext`), so the two never import each other.
 */
import type { EventEmitter } from "node:events";
import type { BusEvent } from "./events";

/** Field types of the platform's table schemas (spec: "Field types in table schemas"). */
export type FieldType =
  | "bool"
  | "text"
  | "string"
  | "num"
  | "uint8"
  | "uint16"
  | "uint32"
  | "uint64"
  | "int8"
  | "int16"
  | "int32"
  | "int64"
  | "enabled"
  | "created"
  | "modified"
  | "json"
  | "row"
  | "rows";

/** A stored row. `$key` is the primary key (number for integer tables, string otherwise). */
export type Row = Record<string, unknown> & { $key: RowKey };
export type RowKey = number | string;

export interface FieldDef {
  type: FieldType;
  /** Shown in `$table` output. */
  description?: string;
  /** Must be present in a POST body. */
  required?: boolean;
  /** Value used when absent on create; a function is called with the partial row being created. */
  default?: unknown | ((row: Record<string, unknown>, ctx: EmulatorContext) => unknown);
  /** Allowed values (value → label, as `$table` `.list`), or a predicate with the message listing the options. */
  enum?: Record<string, string> | { test: (v: string) => boolean; options: string };
  /** Numeric bounds (inclusive) with an optional custom message. */
  min?: number;
  max?: number;
  boundsMessage?: string;
  /** For strings. */
  maxLength?: number;
  pattern?: RegExp;
  /** Set by the server only: rejected in POST/PUT bodies. */
  readOnly?: boolean;
  /** Accepted on create, rejected on update. */
  createOnly?: boolean;
  /** Never returned in reads (write-only secrets such as passwords). */
  hidden?: boolean;
  /** For `row` / `rows` fields: the referenced table (`#` joins walk through it). */
  ref?: string;
  /** For `rows` fields: the field of the `ref` table that points back at this row (machine → drives). */
  via?: string;
  /** Derived value computed at read time (implies read-only; not stored). */
  compute?: (ctx: EmulatorContext, row: Row) => unknown;
  /** For `row` fields: POST/PUT fail unless the referenced row exists (status, default 404). */
  refMustExist?: 404 | 422 | 400;
  /** Included in the `summary` view. */
  summary?: boolean;
  /** Excluded from the `most` view (argument fields); `rows` and hidden fields are always excluded. */
  notInMost?: boolean;
  /** Maps an accepted alternative spelling onto the field's own type before validation (e.g. true → "1"). */
  coerce?: (value: unknown) => unknown;
  /** HTTP status for a type/enum/bounds failure of this field (default: the table's, else 400). */
  errorStatus?: 400 | 422;
}

/** The caller, as seen by hooks and handlers. */
export interface Caller {
  user: string;
  role: Role;
  /** API key name when authenticated by API key. */
  apiKey?: string;
  ip: string;
}

/** `none`: no global role; the user reaches only what its grants (`permissions`) give. */
export type Role = "admin" | "vmoperator" | "readonly" | "none";

export type Operation = "list" | "get" | "create" | "update" | "delete";

/**
 * Lifecycle hooks. They may throw ApiError to refuse the operation. `validate`
 * runs after field-level validation on create and update with the merged row.
 */
export interface TableHooks {
  validate?(ctx: EmulatorContext, row: Row, previous: Row | undefined, caller: Caller): void;
  beforeCreate?(ctx: EmulatorContext, row: Row, caller: Caller): void;
  /** May return the `response` object of the creation answer. */
  // biome-ignore lint/suspicious/noConfusingVoidType: a hook may return nothing; block-bodied handlers infer void
  afterCreate?(ctx: EmulatorContext, row: Row, caller: Caller): Record<string, unknown> | void;
  /** `changes` holds only the validated fields of the PUT body; mutate it to add derived changes. */
  beforeUpdate?(ctx: EmulatorContext, row: Row, changes: Record<string, unknown>, caller: Caller): void;
  afterUpdate?(ctx: EmulatorContext, row: Row, previous: Row, caller: Caller): void;
  beforeDelete?(ctx: EmulatorContext, row: Row, caller: Caller): void;
  afterDelete?(ctx: EmulatorContext, row: Row, caller: Caller): void;
}

/** Result of an action: HTTP status (default 201) and body extras merged into the answer. */
export interface ActionResult {
  status?: number;
  body?: Record<string, unknown>;
}

export interface ActionDef {
  description: string;
  /** Validation of `params` (unknown params are rejected). Absent = any params accepted. */
  params?: Record<string, FieldDef>;
  /** `target` is the row named by the table's target field, when it has one. */
  // biome-ignore lint/suspicious/noConfusingVoidType: a hook may return nothing; block-bodied handlers infer void
  handler(ctx: EmulatorContext, args: { target?: Row; params: Record<string, unknown>; caller: Caller }): ActionResult | void;
  /** Role needed beyond the table's write permission (e.g. admin-only actions). */
  role?: Role;
  /**
   * For a caller its grants decide for, what the action needs besides `modify` on its target: `create` on the
   * target itself when it adds or changes the target's children (hardware, snapshots), as a POST of a child would;
   * `create` on a whole table when it makes a row there (a clone makes a VM).
   */
  grantNeeds?: { createOnTarget: true } | { createIn: string };
}

export interface ActionTableDef {
  /** Body field naming the target row, e.g. `vm` for vm_actions. */
  targetField?: string;
  /** Table of the target row. */
  targetTable?: string;
  /** Turns the target field's value into a key of targetTable (e.g. owner "vms/42" → 42). */
  parseTarget?: (value: unknown) => unknown;
  /** Whether the target field is required (default true when targetField is set). */
  targetRequired?: boolean;
  /** Action used when the body has none. */
  defaultAction?: string;
  /** Spelling variants accepted from different clients, mapped onto canonical actions. */
  aliases?: Record<string, string>;
  /** Row-level spellings of these actions that clients use besides the action table (see server/rowActions.ts). */
  rowRoutes?: RowRoute[];
  actions: Record<string, ActionDef>;
}

/**
 * `post-path`: `POST /v4/<targetTable>/<key>/<action>`, the body being the params;
 * `put-query`: `PUT /v4/<targetTable>/<key>?action=<action>`, the body `{params}`.
 */
export type RowRoute = "post-path" | "put-query";

export interface TableDef {
  name: string;
  description: string;
  keyType: "int" | "string";
  /** First integer key (default 1). */
  firstKey?: number;
  /** Generator for string keys (default: 40-hex random). */
  newKey?: (ctx: EmulatorContext, row: Record<string, unknown>) => string;
  fields: Record<string, FieldDef>;
  /** Fields returned when `fields` is absent (default: every non-hidden scalar field). */
  defaultFields?: string[];
  /** Operations the table allows; others answer 405. Default: all. */
  operations?: Operation[];
  /** Minimum role for reads / writes (default readonly / admin). */
  readRole?: Role;
  writeRole?: Role;
  /** Spec "owner" and "parent" schema fields (informational in `$table`). */
  owner?: string;
  parent?: string;
  /** Status for field validation failures (default 400). */
  validationStatus?: 400 | 422;
  /** Field that must be unique (409 "... with that name exists" on clash), with an optional scope filter. */
  unique?: { field: string; message: string; status?: 409 | 422; scope?: (row: Row) => boolean };
  hooks?: TableHooks;
  /** Present on `*_actions` tables: POST runs an action instead of storing a row. */
  actions?: ActionTableDef;
  /** Rows created when the emulator starts with an empty state. */
  seed?: (ctx: EmulatorContext) => void;
  /** Rows are not persisted (e.g. derived or runtime-only data). */
  transient?: boolean;
  /** Field answered as raw text by `GET /v4/<table>/<key>?download=1`. */
  downloadField?: string;
  /** One-row table: `GET /v4/<table>` answers that row as an object (e.g. `system`). */
  singleton?: boolean;
  /** Runs before a list or get of this table answers (rows that accumulate with time catch up here). */
  beforeRead?: (ctx: EmulatorContext) => void;
}

/**
 * A service: one area of the platform (compute, network, identity...) with its tables and, when it reacts to
 * events or runs timers, its wiring. services/index.ts lists every service in the order they register.
 */
export interface Service {
  tables: TableDef[];
  setup?(ctx: EmulatorContext): void;
}

/** One table's rows, keyed by `$key`, with the next integer key (never lowered: keys are not reused). */
export interface TableStore {
  def: TableDef;
  rows: Map<RowKey, Row>;
  nextKey: number;
}

/**
 * An event of the context's bus: `<table>.created`, `.updated`, `.deleted` for every row change, plus a
 * service's own (a VM's `poweron`...). The payload is the row. The names a service may listen to are the
 * union of every service's events (`BusEvent`, model/events.ts).
 */
export type EmulatorEvent = { name: string; table: string; row: Row; extra?: Record<string, unknown> };

/**
 * Everything a table definition or a service may use — the in-memory database, an event bus,
 * a clock with the time scale and a scheduler for delayed state changes. It knows nothing about HTTP.
 */
export interface EmulatorContext {
  readonly tables: Map<string, TableStore>;
  readonly events: EventEmitter;
  /** Multiplier on the duration of long operations (tests use 0.01). */
  readonly timeScale: number;
  /** Milliseconds since the epoch. */
  now(): number;
  nowSeconds(): number;
  /** Called after every change (persistence journals it): with table and key for row changes. */
  onChange: (table?: string, key?: RowKey) => void;
  /** Called before an answer leaves the server: persistence commits its journal here. */
  beforeAnswer: () => void;
  registerTables(defs: TableDef[]): void;
  /** Registers a service's tables, then runs its setup. */
  registerService(service: Service): void;
  /** Runs every table's seed function (only on an empty state). */
  seed(): void;
  store(table: string): TableStore;
  /** Normalizes an incoming key ("42" → 42 for integer tables). */
  normalizeKey(table: string, key: unknown): RowKey | undefined;
  get(table: string, key: unknown): Row | undefined;
  all(table: string): Row[];
  find(table: string, predicate: (row: Row) => boolean): Row[];
  /** Stores a row as given (no validation: hooks and seeds use this). Assigns `$key` when absent. */
  insert(table: string, row: Record<string, unknown>): Row;
  /** Merges changes into a stored row in place and returns it. */
  update(table: string, key: RowKey, changes: Record<string, unknown>): Row;
  remove(table: string, key: RowKey): Row | undefined;
  /** Emits a service's event on the bus and marks the row changed (the engine emits the row changes). */
  emit(name: BusEvent, table: string, row: Row, extra?: Record<string, unknown>): void;
  /** Runs `fn` after `ms × timeScale` ms (not sooner than `minRealMs`); the returned function cancels it. */
  schedule(ms: number, fn: () => void, minRealMs?: number): () => void;
  /** Number of pending delayed changes. */
  pendingTimers(): number;
  /** Cancels every scheduled change and drops listeners. */
  close(): void;
}
