/**
 * The slice of the platform API the reconciler uses. The ApiClient
 * (provider/client) is adapted to this in platformClient.ts, so the
 * reconcile logic can be unit-tested with small fakes.
 */
import type { CreatedRow, ListQuery } from "../client/api-client";
import type { PlatformClock } from "../client/platformClock";
import type { Row } from "../client/row";
import { filterLiteral } from "../client/query-string";

export type { CreatedRow, ListQuery };
export type { Row };

export interface PlatformApi {
  list(table: string, query?: ListQuery): Promise<Row[]>;
  /** Resolves to undefined when the row does not exist (404). */
  get(table: string, key: string, fields?: string): Promise<Row | undefined>;
  create(table: string, body: Row): Promise<CreatedRow>;
  /** POST to an `*_actions` table; resolves to the answer (which has no row key of its own). */
  action(table: string, body: Row): Promise<Row>;
  update(table: string, key: string, body: Row): Promise<void>;
  /** Resolves when the row is gone, including when it already was (404). */
  remove(table: string, key: string): Promise<void>;
  /** Ends the client's keep-alive connections (a replaced client must not hold its sockets). */
  close?(): void;
  /** Rows whose plain `column` equals `value`; concurrent calls may share one request (see rowsWhere). */
  listWhere?(table: string, column: string, value: string, fields: string): Promise<Row[]>;
  /** The platform's time as its answers tell it (absent: fakes and clients that cannot tell; the local clock serves). */
  readonly clock?: PlatformClock;
}

/** Rows of `table` whose `column` equals `value`: batched with concurrent look-ups when the API can. */
export function rowsWhere(api: PlatformApi, table: string, column: string, value: string, fields: string): Promise<Row[]> {
  if (api.listWhere) return api.listWhere(table, column, value, fields);
  return api.list(table, { filter: `${column} eq ${filterLiteral(value)}`, fields });
}

/** HTTP status of an error thrown by the client, if it carries one. */
export function errorStatus(err: unknown): number | undefined {
  if (typeof err !== "object" || err === null) return undefined;
  const e = err as { status?: unknown; statusCode?: unknown; response?: { statusCode?: unknown } };
  for (const v of [e.status, e.statusCode, e.response?.statusCode]) if (typeof v === "number") return v;
  return undefined;
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export const str = (v: unknown): string => (v === null || v === undefined ? "" : String(v));
