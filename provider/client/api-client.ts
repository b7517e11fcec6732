import * as https from "https";
import got, { type Got, RequestError } from "got";
import type { ProviderConfig } from "../config/provider-config";
import { ApiError, RequestBudgetExceeded, apiMessageOf } from "./errors";
import { buildQueryString, type ListQuery } from "./query-string";
import { DEFAULT_RETRY, backoffDelay, retryAfterMs, shouldRetry, type RetryPolicy } from "./retry-policy";

export type { ListQuery } from "./query-string";
export type { RetryPolicy } from "./retry-policy";

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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The platform's REST API over HTTPS (got). Credentials live only in a closure
 * that builds the auth headers: errors, logs and `util.inspect` never show them.
 */
export class ApiClient {
  readonly #http: Got;
  readonly #agent: https.Agent;
  readonly #authHeaders: () => Record<string, string>;
  readonly #endpoint: string;
  readonly #retry: RetryPolicy;
  readonly #budget?: number;
  readonly #onRequest?: (e: RequestEvent) => void;
  #sent = 0;

  constructor(config: ProviderConfig, options: { onRequest?: (e: RequestEvent) => void; retry?: Partial<RetryPolicy> } = {}) {
    this.#endpoint = config.endpoint;
    this.#retry = { ...DEFAULT_RETRY, ...options.retry };
    this.#budget = config.requestBudget;
    this.#onRequest = options.onRequest;
    this.#authHeaders = authHeadersFor(config);
    this.#agent = new https.Agent({ keepAlive: true, maxSockets: 16 });
    this.#http = got.extend({
      agent: { https: this.#agent },
      https: { certificateAuthority: config.caCert, rejectUnauthorized: !config.insecure },
      timeout: { request: config.requestTimeoutMs },
      retry: { limit: 0 },
      throwHttpErrors: false,
      followRedirect: false,
      headers: { accept: "application/json", "user-agent": "vplatform-pulumi" },
    });
  }

  /** Requests actually sent, retries included. */
  get requestCount(): number {
    return this.#sent;
  }

  async list<T = Record<string, unknown>>(table: string, query?: ListQuery): Promise<T[]> {
    return (await this.#request("GET", `/v4/${table}${buildQueryString(query)}`)) as T[];
  }

  /** The row, or undefined when it does not exist (404). */
  async get<T = Record<string, unknown>>(table: string, key: string | number, query?: Pick<ListQuery, "fields">): Promise<T | undefined> {
    try {
      return (await this.#request("GET", `/v4/${table}/${encodeURIComponent(String(key))}${buildQueryString(query)}`)) as T;
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return undefined;
      throw err;
    }
  }

  async create(table: string, body: object): Promise<CreatedRow> {
    const created = (await this.#request("POST", `/v4/${table}`, body)) as CreatedRow;
    return { ...created, $key: String(created.$key) };
  }

  async update(table: string, key: string | number, body: object): Promise<void> {
    await this.#request("PUT", `/v4/${table}/${encodeURIComponent(String(key))}`, body);
  }

  async delete(table: string, key: string | number): Promise<void> {
    await this.#request("DELETE", `/v4/${table}/${encodeURIComponent(String(key))}`);
  }

  /** POST to an `*_actions` table. */
  async action(table: string, body: object): Promise<Record<string, unknown>> {
    return ((await this.#request("POST", `/v4/${table}`, body)) ?? {}) as Record<string, unknown>;
  }

  close(): void {
    this.#agent.destroy();
  }

  async #request(method: string, path: string, body?: object): Promise<unknown> {
    for (let attempt = 1; ; attempt++) {
      if (this.#budget !== undefined && this.#sent >= this.#budget) throw new RequestBudgetExceeded(this.#budget, method, path);
      this.#sent++;
      const started = performance.now();
      let status: number | undefined;
      let errorCode: string | undefined;
      let text = "";
      let retryAfter: string | undefined;
      try {
        const res = await this.#http(`${this.#endpoint}/api${path}`, {
          method: method as "GET",
          headers: this.#authHeaders(),
          ...(body === undefined ? {} : { json: body }),
        });
        status = res.statusCode;
        text = res.body;
        retryAfter = res.headers["retry-after"] as string | undefined;
      } catch (err) {
        errorCode = err instanceof RequestError ? (err.code ?? "ERR_GOT_REQUEST_ERROR") : "EUNKNOWN";
        if (!(attempt < this.#retry.attempts && shouldRetry(method, { errorCode }))) {
          throw new ApiError(0, method, path, `connection failed (${errorCode}${err instanceof Error ? `: ${err.message}` : ""})`);
        }
      }
      this.#onRequest?.({ method, path, status: status ?? 0, ms: performance.now() - started });
      if (status !== undefined && status < 300) return text ? JSON.parse(text) : undefined;
      if (status !== undefined && !(attempt < this.#retry.attempts && shouldRetry(method, { status }))) {
        throw new ApiError(status, method, path, apiMessageOf(text));
      }
      await sleep(status === 429 ? retryAfterMs(retryAfter) : backoffDelay(this.#retry, attempt));
    }
  }
}

function authHeadersFor(config: ProviderConfig): () => Record<string, string> {
  const { apiKey, sessionToken, username, password, tokenHeader } = config;
  if (apiKey) return () => ({ authorization: `Bearer ${apiKey}` });
  if (sessionToken) return () => ({ [tokenHeader]: sessionToken });
  const basic = `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;
  return () => ({ authorization: basic });
}
