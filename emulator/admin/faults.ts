/**
 * Fault injection for tests (`POST /_emulator/faults`). A fault matches
 * requests by method and table ("*" for any) and, when it fires, stalls the
 * request (`stallMs`), drops the connection (`drop`) and/or answers `status`
 * with `{"error": "injected fault"}` instead of running it. `count` limits how
 * many requests it hits (default unlimited), `probability` (0–1, default 1)
 * makes it random. A stall without status or drop only delays the real answer.
 * A 408 (operation timeout, which the emulator never produces by itself) is
 * injected with `{"status": 408}`; `retryAfter` (seconds) adds a Retry-After
 * header to the injected status (a 429 of a rate limit). `lateMs` is a late answer: the request is
 * processed (committed) at once and answered only after that delay, past a
 * client's timeout. `where` narrows a fault to requests whose body fields (or
 * `$key`, the row key of the path) equal the given values, compared as text:
 * `{"method": "DELETE", "table": "vms", "where": {"$key": "7"}}` hits only VM 7.
 */
import { validationError } from "../model/errors";
import { intField, probabilityField, ruleBody, ruleTarget, targets } from "./ruleFields";

export interface Fault {
  id: number;
  method: string;
  table: string;
  status?: number;
  /** Seconds for the Retry-After header of the injected status. */
  retryAfter?: number;
  stallMs?: number;
  drop?: boolean;
  /** Process the request, then drop the connection instead of answering: the change lands, the client never learns it. */
  dropAfter?: boolean;
  /** Process the request at once, answer after this many ms (a late answer). */
  lateMs?: number;
  count?: number;
  probability?: number;
  /** Body fields (and `$key`, the path's row key) the request must carry, compared as text. */
  where?: Record<string, string>;
  hits: number;
}

/** What a fault may look at in a request besides method and table. */
export interface RequestFacts {
  key?: string;
  body?: unknown;
}

const FAULT_FIELDS = ["method", "table", "status", "retryAfter", "stallMs", "drop", "dropAfter", "lateMs", "count", "probability", "where"];

export class FaultInjector {
  private faults: Fault[] = [];
  private nextId = 1;

  /** `random` is the emulator's seeded source (see random.ts), so probabilistic faults replay alike. */
  constructor(private readonly random: () => number = Math.random) {}

  add(body: unknown): Fault {
    const b = ruleBody(body, "fault", FAULT_FIELDS);
    const { method, table } = ruleTarget(b);
    const int = (name: string, min: number, max: number) => intField(b, name, min, max);
    const status = int("status", 100, 599);
    const retryAfter = int("retryAfter", 0, 86_400);
    if (retryAfter !== undefined && status === undefined) throw validationError("retryAfter", "needs a status to go with");
    const stallMs = int("stallMs", 0, 600_000);
    const lateMs = int("lateMs", 1, 600_000);
    const count = int("count", 1, 1_000_000);
    const probability = probabilityField(b);
    if (b.drop !== undefined && typeof b.drop !== "boolean") throw validationError("drop", "must be a boolean");
    if (b.dropAfter !== undefined && typeof b.dropAfter !== "boolean") throw validationError("dropAfter", "must be a boolean");
    const where = b.where === undefined ? undefined : whereOf(b.where);
    if (status === undefined && stallMs === undefined && lateMs === undefined && !b.drop && !b.dropAfter) {
      throw validationError("status", "one of status, stallMs, drop, dropAfter or lateMs is required");
    }
    const fault: Fault = {
      id: this.nextId++,
      method,
      table,
      status,
      retryAfter,
      stallMs,
      drop: b.drop as boolean | undefined,
      dropAfter: b.dropAfter as boolean | undefined,
      lateMs,
      count,
      probability,
      where,
      hits: 0,
    };
    this.faults.push(fault);
    return fault;
  }

  list(): Fault[] {
    return this.faults.map((f) => ({ ...f }));
  }

  clear(): void {
    this.faults = [];
  }

  /** The fault hitting this request, if any (counting it and retiring it when used up). */
  /** Without `request`: the faults without `where` (checked before the body is read); with it: those with `where`. */
  match(method: string, table: string, request?: RequestFacts): Fault | undefined {
    for (const fault of this.faults) {
      if (!targets(fault, method, table)) continue;
      if (!fault.where !== !request || (fault.where && !matchesWhere(fault.where, request!))) continue;
      if (fault.probability !== undefined && this.random() >= fault.probability) continue;
      fault.hits++;
      if (fault.count !== undefined && fault.hits >= fault.count) this.faults = this.faults.filter((f) => f !== fault);
      return fault;
    }
    return undefined;
  }
}

function whereOf(value: unknown): Record<string, string> {
  if (!value || typeof value !== "object" || Array.isArray(value)) throw validationError("where", "must be an object of field: value");
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.some(([, v]) => v === null || typeof v === "object"))
    throw validationError("where", "values must be strings, numbers or booleans");
  return Object.fromEntries(entries.map(([k, v]) => [k, String(v)]));
}

function matchesWhere(where: Record<string, string>, request: RequestFacts): boolean {
  const body = request.body && typeof request.body === "object" ? (request.body as Record<string, unknown>) : {};
  return Object.entries(where).every(([field, want]) => {
    const got = field === "$key" ? request.key : body[field];
    return got !== undefined && got !== null && typeof got !== "object" && String(got) === want;
  });
}
