/** The web console's live request log: the latest API requests with their answer, newest first, at most `size`. */
export interface LoggedRequest {
  /** Milliseconds since the epoch, when the answer left. */
  at: number;
  method: string;
  /** The path without the query (a query may carry a filter the console need not show). */
  path: string;
  status: number;
  /** API key name, else user name, else "anonymous" (the request counter's caller names). */
  caller: string;
  ms: number;
}

export class RequestLog {
  private entries: LoggedRequest[] = [];

  constructor(private readonly size = 200) {}

  add(entry: LoggedRequest): void {
    this.entries.unshift(entry);
    if (this.entries.length > this.size) this.entries.length = this.size;
  }

  latest(count: number): LoggedRequest[] {
    return this.entries.slice(0, count);
  }
}
