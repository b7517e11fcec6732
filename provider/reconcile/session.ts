import { AsyncLocalStorage } from "node:async_hooks";
import { KeyedMutex } from "./keyedMutex";
import type { CreatedRow, ListQuery, PlatformApi, Row } from "./platform";
import { RefreshListings } from "./refreshListing";
import { API_KEY_TABLE } from "../schemas/tables";

/** Any answer tells the time, an error's too: the smallest read of a table every key may list (its own keys). */
const CLOCK_PROBE = { table: API_KEY_TABLE, query: { fields: "$key", limit: 1 } } as const;

/** A piece of what a session learns (a cache, the pollers): declared once at module scope, kept per session. */
export interface Memo<T> {
  readonly make: () => T;
}

/** Declares a memo: `const known = perSession(() => new Set<string>())`, then `known(session)`. */
export function perSession<T>(make: () => T): (session: Session) => T {
  const memo: Memo<T> = { make };
  return (session) => session.recall(memo);
}

/**
 * Everything the operations of one provider configuration (one site) share,
 * and nothing another configuration sees: its platform client (with its pacer:
 * the request budget is per API key), what it learned of the platform (caches,
 * pollers), the per-machine locks and the restarts owed to machines. Each
 * door builds one per configuration and hands it to every operation (the
 * plugin per provider instance, the dynamic door through its registry), as
 * bpg's proxmox provider hands each resource the client Configure built.
 * Two sites with the same machine keys never wait on each other's locks.
 */
export class Session implements PlatformApi {
  readonly #api: PlatformApi;
  readonly #locks = new KeyedMutex();
  /** Machine key → the start owed to a machine stopped for hardware changes it could not take running. */
  readonly #owedStarts = new Map<string, () => Promise<void>>();
  readonly #memory = new Map<Memo<unknown>, unknown>();
  /** `table/key` of each row this session created: a reference to one needs no look-up. */
  readonly #created = new Set<string>();
  /** Bumped when a change is sent and when it is answered: a listing read meanwhile may not show it. */
  #mutations = 0;
  readonly #refreshListings: RefreshListings;
  /** Set while a `read` operation runs: its reads of the rows of this table may come from the run's listing of it. */
  readonly #reading = new AsyncLocalStorage<{ listed?: string }>();
  readonly listWhere?: PlatformApi["listWhere"];

  constructor(api: PlatformApi) {
    this.#api = api;
    this.#refreshListings = new RefreshListings(api, () => this.#mutations);
    if (api.listWhere) this.listWhere = (table, column, value, fields) => api.listWhere!(table, column, value, fields);
  }

  list(table: string, query?: ListQuery): Promise<Row[]> {
    return this.#api.list(table, query);
  }
  async get(table: string, key: string, fields?: string): Promise<Row | undefined> {
    const fromListing =
      fields && this.#reading.getStore()?.listed === table ? await this.#refreshListings.serve(table, key, fields) : undefined;
    return fromListing ?? this.#api.get(table, key, fields);
  }
  async create(table: string, body: Row): Promise<CreatedRow> {
    const row = await this.#mutating(() => this.#api.create(table, body));
    this.#created.add(`${table}/${row.$key}`);
    return row;
  }
  /** A row this session made otherwise than by a POST to its table (a clone, made by a VM action). */
  madeRow(table: string, key: string): void {
    this.#created.add(`${table}/${key}`);
  }
  /** Whether this session created the row `key` of `table` (and so it existed then). */
  created(table: string, key: string): boolean {
    return this.#created.has(`${table}/${key}`);
  }
  action(table: string, body: Row): Promise<Row> {
    return this.#mutating(() => this.#api.action(table, body));
  }
  update(table: string, key: string, body: Row): Promise<void> {
    return this.#mutating(() => this.#api.update(table, key, body));
  }
  remove(table: string, key: string): Promise<void> {
    return this.#mutating(() => this.#api.remove(table, key));
  }
  async #mutating<T>(send: () => Promise<T>): Promise<T> {
    this.#mutations++;
    try {
      return await send();
    } finally {
      this.#mutations++;
    }
  }

  /**
   * Runs a `read` operation (refresh, import): its reads of the rows of `listed` (its resource's `refreshListing`)
   * may be answered from the run's listing of that table; its other reads go to the platform.
   */
  reading<T>(listed: string | undefined, work: () => Promise<T>): Promise<T> {
    return this.#reading.run({ listed }, work);
  }
  /** The platform's time (ms since the epoch) by the Date header of its latest answer; the local clock's before any. */
  platformNow(): number {
    return this.#api.clock?.now() ?? Date.now();
  }
  /** As platformNow, but a check may come before any answer: then one small read asks the platform for its time. */
  async askPlatformNow(): Promise<number> {
    if (this.#api.clock?.known === false) await this.#api.list(CLOCK_PROBE.table, CLOCK_PROBE.query).catch(() => undefined);
    return this.platformNow();
  }

  /** Ends the client's keep-alive connections: a replaced session must not hold its sockets. */
  close(): void {
    this.#api.close?.();
  }

  /** This session's value of `memo`, made on first use. */
  recall<T>(memo: Memo<T>): T {
    if (!this.#memory.has(memo)) this.#memory.set(memo, memo.make());
    return this.#memory.get(memo) as T;
  }

  /** Runs a change to one machine after every earlier change to it finished; the last one pays a start owed to it. */
  withMachineLock<T>(machineKey: string, work: () => Promise<T>): Promise<T> {
    return this.#locks.run(machineKey, async () => {
      let result: T;
      try {
        result = await work();
      } catch (err) {
        await this.settleOwedStart(machineKey).catch((startErr) =>
          console.log(`vplatform: starting machine ${machineKey} again failed too: ${String(startErr)}`),
        );
        throw err;
      }
      await this.settleOwedStart(machineKey);
      return result;
    });
  }

  /** Several changes queued on one stopped machine share one restart, which the last of them runs. */
  oweStart(machineKey: string, start: () => Promise<void>): void {
    this.#owedStarts.set(machineKey, start);
  }

  /** The machine's power is decided otherwise now (a declared power state, a deletion). */
  forgetOwedStart(machineKey: string): void {
    this.#owedStarts.delete(machineKey);
  }

  /** For the holder of the machine's lock: runs the owed start unless more changes wait to run on the stopped machine. */
  async settleOwedStart(machineKey: string): Promise<void> {
    const start = this.#owedStarts.get(machineKey);
    if (!start || this.#locks.queuedBehind(machineKey)) return;
    this.#owedStarts.delete(machineKey);
    await start();
  }
}
