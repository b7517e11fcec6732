import * as https from "node:https";
import { inspect } from "node:util";
import type { ExtendOptions, Got } from "got";
import type { ProviderConfig } from "../config/provider-config";
import { authHeadersFor, credentialSettingsOf, redactorFor, secretValuesOf, type Headers } from "./credentials";
import { ApiError, apiMessageOf, isUnreachable, settingsHint, type RequestSettings } from "./errors";
import { buildQueryString, type ListQuery } from "./query-string";
import { currentDeadline } from "./operationDeadline";
import { BudgetWaitTooLong, RequestPacer, type RequestBudget } from "./pacer";
import { PlatformClock } from "./platformClock";
import { DEFAULT_RETRY, retryAfterMs, retryDelay, type AttemptOutcome, type RetryPolicy } from "./retry-policy";
import { tlsHint, tlsOptionsFor } from "./tls-options";

export type { ListQuery } from "./query-string";
export type { RetryPolicy } from "./retry-policy";

/** One attempt that reached the wire; status 0 when no answer came. */
export interface RequestEvent {
  method: string;
  path: string;
  status: number;
  ms: number;
}

export interface CreatedRow {
  $key: string;
  location?: string;
  dbpath?: string;
  $row?: number;
  response?: Record<string, unknown>;
}

export interface ApiClientOptions {
  /** Called after every attempt (retries included): for logging and request accounting. */
  onRequest?: (e: RequestEvent) => void;
  retry?: Partial<RetryPolicy>;
  /** Where the request budget is kept; defaults to a pacer of this client alone (its session's: two sites never share a budget). */
  pacer?: RequestPacer;
  /** Waits between attempts (tests record delays instead of sleeping). */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** How long an endpoint that never answered may refuse connections before requests stop retrying (default 10 s). */
  firstContactMs?: number;
}

type Method = "GET" | "POST" | "PUT" | "DELETE";

/** The platform's limit per API key, the budget when none is configured. */
export const PLATFORM_REQUESTS_PER_HOUR = 1000;

const TABLE_NAME = /^[a-z][a-z0-9_]*$/;
const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** got (some 40 modules) loads at the first request: a preview, which sends none, never pays for it. */
const loadGot = (): typeof import("got") => require("got");

/**
 * The platform's REST API (`${endpoint}/api/v4/<table>[/<key>]`) over HTTPS with got.
 * Credentials exist only inside the header builder and the redactor: errors,
 * request events and `util.inspect` never show them.
 *
 * User name and password go as Basic credentials on every request rather than
 * traded for a session token: a dynamic provider's process gets no reliable
 * end-of-run hook (the engine kills it), so a token per run would be left to
 * expire on the platform instead of being logged out, and the login and logout
 * would cost two of the key's 1000 requests an hour per run.
 */
export class ApiClient {
  readonly #endpoint: string;
  readonly #httpOptions: ExtendOptions;
  #httpClient?: Got;
  readonly #agent: https.Agent;
  readonly #authHeaders: Headers;
  readonly #settings: RequestSettings;
  readonly #redact: (text: string) => string;
  readonly #budget: RequestBudget;
  readonly #retry: RetryPolicy;
  readonly #pacer: RequestPacer;
  readonly #onRequest?: (e: RequestEvent) => void;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #random: () => number;
  readonly #firstContactMs: number;
  /** The platform's time, from the Date header of every answer (expiry is judged by it). */
  readonly clock = new PlatformClock();

  /** The platform's address (`https://host[:port]`): links into its web interface start there. */
  get endpoint(): string {
    return this.#endpoint;
  }
  #sent = 0;
  /** When the first attempt went out, and whether any attempt got an answer: see #givesUp. */
  #firstAttemptAt?: number;
  #answered = false;

  constructor(config: ProviderConfig, options: ApiClientOptions = {}) {
    this.#endpoint = config.endpoint.replace(/\/+$/, "");
    this.#authHeaders = authHeadersFor(config);
    this.#settings = { endpoint: this.#endpoint, credentials: credentialSettingsOf(config), requestTimeoutMs: config.requestTimeoutMs };
    this.#redact = redactorFor(secretValuesOf(config));
    this.#budget = {
      requests: config.requestBudget ?? PLATFORM_REQUESTS_PER_HOUR,
      windowMs: (config.requestBudgetWindowSec ?? 3600) * 1000,
    };
    this.#retry = { ...DEFAULT_RETRY, ...options.retry };
    this.#pacer = options.pacer ?? new RequestPacer();
    this.#onRequest = options.onRequest;
    this.#sleep = options.sleep ?? realSleep;
    this.#random = options.random ?? Math.random;
    this.#firstContactMs = options.firstContactMs ?? 10_000;
    this.#agent = new https.Agent({ keepAlive: true, maxSockets: 8 });
    this.#httpOptions = {
      agent: { https: this.#agent },
      https: tlsOptionsFor(config),
      timeout: { request: config.requestTimeoutMs },
      retry: { limit: 0 },
      throwHttpErrors: false,
      followRedirect: false,
      headers: { accept: "application/json", "user-agent": "vplatform-pulumi-provider" },
    };
  }

  get #http(): Got {
    this.#httpClient ??= loadGot().default.extend(this.#httpOptions);
    return this.#httpClient;
  }

  /** Requests this client actually sent, retries included. */
  get requestCount(): number {
    return this.#sent;
  }

  async list<T = Record<string, unknown>>(table: string, query?: ListQuery): Promise<T[]> {
    return ((await this.#call("GET", `${tablePath(table)}${buildQueryString(query)}`)) ?? []) as T[];
  }

  /** The row, or undefined when it does not exist (404). */
  async get<T = Record<string, unknown>>(table: string, key: string | number, query?: Pick<ListQuery, "fields">): Promise<T | undefined> {
    try {
      return (await this.#call("GET", `${rowPath(table, key)}${buildQueryString(query)}`)) as T;
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return undefined;
      throw err;
    }
  }

  /**
   * POST a row. `$key` is always a string (the platform answers int, float or
   * numeric string); without one it comes from `location` (`/v4/vms/42`), else
   * it is "" (an action table answer: use action() for those).
   */
  async create(table: string, body: object): Promise<CreatedRow> {
    const created = ((await this.#call("POST", tablePath(table), body)) ?? {}) as Partial<CreatedRow>;
    return { ...created, $key: createdKey(created) };
  }

  async update(table: string, key: string | number, body: object): Promise<void> {
    await this.#call("PUT", rowPath(table, key), body);
  }

  /** Throws ApiError on 404 too: whether a missing row is fine is the caller's call. */
  async delete(table: string, key: string | number): Promise<void> {
    await this.#call("DELETE", rowPath(table, key));
  }

  /** POST to an `*_actions` table (`{ <target>, action, params? }`). */
  async action(table: string, body: object): Promise<Record<string, unknown>> {
    return ((await this.#call("POST", tablePath(table), body)) ?? {}) as Record<string, unknown>;
  }

  /** Ends the keep-alive connections, so the process can exit. */
  close(): void {
    this.#agent.destroy();
  }

  [inspect.custom](): string {
    return `ApiClient { endpoint: '${this.#endpoint}', requestCount: ${this.#sent} }`;
  }

  toJSON(): Record<string, unknown> {
    return { endpoint: this.#endpoint, requestCount: this.#sent };
  }

  /** Sends with retries (see retryDelay for which failures are retried); resolves to the parsed JSON body. */
  async #call(method: Method, path: string, body?: object, headers: Headers = this.#authHeaders): Promise<unknown> {
    // The resource operation's deadline when there is one, else the client's own budget.
    const deadline = currentDeadline()?.at ?? Date.now() + this.#retry.budgetMs;
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.#attempt(method, path, body, headers);
      if ("value" in outcome) return outcome.value;
      if (this.#pausedFor429(outcome.failure)) {
        attempt--; // waiting out a 429 is pacing, not a failed attempt
        continue;
      }
      const delay = retryDelay(method, outcome.failure, attempt, this.#retry, this.#random, Date.now(), deadline);
      if (delay === undefined || this.#givesUp(outcome.failure)) throw outcome.error;
      await this.#sleep(delay);
    }
  }

  /**
   * An endpoint that has never answered this client and still refuses after firstContactMs is taken for a
   * wrong vplatform:endpoint, not a restarting platform: the error names the setting in seconds, not after
   * the operation's whole timeout. So is one that took the connection and let a first request time out (a
   * port that is no platform's API, or a platform in a process that never turns its event loop): one request
   * timeout, not the retries'. Once it answered, a refusal or a timeout is a restart, ridden out to the deadline.
   */
  #givesUp(failure: AttemptOutcome): boolean {
    if (failure.kind !== "connection" || this.#answered) return false;
    if (failure.code === "ETIMEDOUT") return true;
    if (!isUnreachable(failure.code)) return false;
    return Date.now() - (this.#firstAttemptAt ?? 0) >= this.#firstContactMs;
  }

  /**
   * Inside a resource operation a 429 pauses every request of the process for
   * its Retry-After, however long, as the operation's timeout allows (the
   * pacer refuses a wait past it); outside one the retry policy decides.
   */
  #pausedFor429(failure: AttemptOutcome): boolean {
    if (failure.kind !== "response" || failure.status !== 429 || !currentDeadline()) return false;
    this.#pacer.pauseFor(retryAfterMs(failure.retryAfter) ?? this.#retry.maxDelayMs);
    return true;
  }

  /** One request on the wire: its parsed body, or the failure and the error it means. */
  async #attempt(
    method: Method,
    path: string,
    body: object | undefined,
    headers: Headers,
  ): Promise<{ value: unknown } | { failure: AttemptOutcome; error: ApiError }> {
    const deadline = currentDeadline();
    try {
      await this.#pacer.admit(this.#budget, `${method} ${this.#redact(path)}`, deadline && deadline.at - Date.now());
    } catch (err) {
      if (!(err instanceof BudgetWaitTooLong) || !deadline) throw err;
      throw new BudgetWaitTooLong(`${err.message} (${deadline.limit})`);
    }
    this.#sent++;
    this.#firstAttemptAt ??= Date.now();
    const started = performance.now();
    const report = (status: number) => {
      try {
        this.#onRequest?.({ method, path: this.#redact(path), status, ms: performance.now() - started });
      } catch {
        // An observer must not turn a finished request into a failure.
      }
    };
    try {
      const res = await this.#http(`${this.#endpoint}/api${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { json: body }),
      });
      report(res.statusCode);
      this.#answered = true;
      this.clock.observe(res.headers.date);
      if (res.statusCode >= 200 && res.statusCode < 300) return { value: this.#parseBody(method, path, res.statusCode, res.body) };
      const retryAfter = res.headers["retry-after"];
      return {
        failure: { kind: "response", status: res.statusCode, retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter },
        error: this.#apiError(res.statusCode, method, path, apiMessageOf(res.body)),
      };
    } catch (err) {
      if (err instanceof ApiError) throw err;
      report(0);
      const { RequestError } = loadGot();
      const code = (err instanceof RequestError ? err.code : (err as NodeJS.ErrnoException)?.code) ?? "EUNKNOWN";
      // got sets timings.upload when the request was completely handed to the socket.
      const requestWritten = err instanceof RequestError && err.timings?.upload !== undefined;
      const text = [err instanceof Error ? err.message : String(err), tlsHint(code)].filter(Boolean).join("; ");
      return { failure: { kind: "connection", code, requestWritten }, error: this.#apiError(0, method, path, `${code}: ${text}`, code) };
    }
  }

  #parseBody(method: Method, path: string, status: number, text: string): unknown {
    if (text.trim() === "") return undefined;
    try {
      return JSON.parse(text);
    } catch {
      throw this.#apiError(status, method, path, "response is not JSON");
    }
  }

  /** Every text that leaves the client passes the redactor (an API that echoes a credential must not leak it). */
  #apiError(status: number, method: Method, path: string, message?: string, code?: string): ApiError {
    const redacted = (text: string | undefined) => (text === undefined ? undefined : this.#redact(text));
    const hint = settingsHint(status, code, this.#settings, undefined, this.#answered);
    return new ApiError(status, method, this.#redact(path), redacted(message), code, redacted(hint));
  }
}

function tablePath(table: string): string {
  if (!TABLE_NAME.test(table)) throw new TypeError(`invalid table name '${table}'`);
  return `/v4/${table}`;
}

/** An empty key would address the table itself (a list), so it is refused. */
function rowPath(table: string, key: string | number): string {
  const text = String(key);
  if (text === "") throw new TypeError(`empty key for table '${table}'`);
  return `${tablePath(table)}/${encodeURIComponent(text)}`;
}

export function createdKey(created: Partial<CreatedRow>): string {
  if (created.$key !== undefined && created.$key !== null) return String(created.$key);
  return typeof created.location === "string" ? decodeURIComponent(created.location.split("/").pop() ?? "") : "";
}
