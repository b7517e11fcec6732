import { perSession, type Session } from "./session";

/**
 * How long each kind of change ("restore", "power-on", "shutdown") takes on
 * this platform, as waits have seen it: milliseconds from a wait's start to
 * the read that saw the change over. The status poller reads a new wait of a
 * known kind near that time, not from 250 ms on (see statusPoller).
 *
 * A process learns as it waits; a command that runs in a fresh process (a
 * lab's reset, a week after the last) can be given what an earlier one saw
 * (`remember`) and hand back what it saw itself (`known`), so the figure is
 * kept with the stack. What this session saw replaces what it was given: the
 * platform may have become slower since.
 */
export class LearnedDurations {
  readonly #remembered = new Map<string, number>();
  /** The quickest end seen per kind in this session. */
  readonly #seen = new Map<string, number>();
  /** Per kind never seen to end: the quickest wait over by its first read, at that read (an upper bound). */
  readonly #overBy = new Map<string, number>();
  /** What to expect of a kind nothing was seen or remembered of, and why (reasoned from other kinds: `priorOfRestore`). */
  readonly #expected = new Map<string, { ms: number; why: string }>();

  /** Durations an earlier process saw (kinds this session has seen keep their own). */
  remember(durations: Readonly<Record<string, number>>): void {
    for (const [kind, ms] of Object.entries(durations)) this.#remembered.set(kind, ms);
  }

  /**
   * Expects a change of `kind` to take about `ms` (`why`: "as a clone and a power-on took") until one is seen or
   * remembered; never kept (`known` leaves it out).
   */
  expect(kind: string, ms: number, why: string): void {
    if (Number.isFinite(ms) && ms > 0) this.#expected.set(kind, { ms, why });
  }

  /** A wait of `kind`, read before it was over, was seen over `ms` after it started. */
  seen(kind: string, ms: number): void {
    this.#seen.set(kind, Math.min(ms, this.#seen.get(kind) ?? Infinity));
  }

  /** A wait of `kind` was over by its first read, `ms` after it started: it took at most that (no schedule uses it). */
  overBy(kind: string, ms: number): void {
    this.#overBy.set(kind, Math.min(ms, this.#overBy.get(kind) ?? Infinity));
  }

  /**
   * Everything known, and for each kind never seen to end but over by a first read, that read's time as
   * `<kind> at most`: what a snapshot records of its making (a power-on over before the poller's first read of it
   * still bounds a first reset's expectation).
   */
  knownAndBounds(): Record<string, number> {
    const known = this.known();
    const bounds = [...this.#overBy].filter(([kind]) => !(kind in known)).map(([kind, ms]) => [atMost(kind), ms] as const);
    return { ...known, ...Object.fromEntries(bounds) };
  }

  /** The duration to expect of a change of `kind`: as seen to end, else as remembered, else as expected. */
  of(kind: string): number | undefined {
    return this.#seen.get(kind) ?? this.#remembered.get(kind) ?? this.#expected.get(kind)?.ms;
  }

  /** Where `of(kind)` comes from, for a progress line: "as seen before", or why it is expected. */
  basisOf(kind: string): string {
    return this.#seen.has(kind) || this.#remembered.has(kind) ? "as seen before" : (this.#expected.get(kind)?.why ?? "as seen before");
  }

  /** Everything known: what this session saw over what it was given. */
  known(): Record<string, number> {
    return Object.fromEntries([...this.#remembered, ...this.#seen].sort(([a], [b]) => a.localeCompare(b)));
  }
}

const byTable = perSession(() => new Map<string, LearnedDurations>());

/** The session's durations of changes waited for on `table` (a VM's power-on and a vnet's are not the same change). */
export function learnedDurations(session: Session, table: string): LearnedDurations {
  const tables = byTable(session);
  let durations = tables.get(table);
  if (!durations) {
    durations = new LearnedDurations();
    tables.set(table, durations);
  }
  return durations;
}

/**
 * What to expect of a reset's restore with power-on before any was seen: a restore copies a snapshot's drives back
 * as a clone copies its source's, then powers the VM on, so about a clone plus a power-on, as the stack's `up` saw
 * them (`figures`: the durations its snapshots were taken with; a power-on over by its first read, that read's
 * time). Undefined when the up saw no clone end after its first read (lab speed: a restore there is over by the
 * first read anyway) or no power-on at all: then nothing is expected, and the restore is read from the start.
 */
export function priorOfRestore(figures: Readonly<Record<string, number>>): number | undefined {
  const clone = figures.clone;
  // A power-on quicker than the poller's pace may have ended before any first read: its bound stands in.
  const powerOn = figures["power-on"] ?? figures[atMost("power-on")];
  return clone > 0 && powerOn > 0 ? clone + powerOn : undefined;
}

/** The name of a kind's upper bound in a record (`knownAndBounds`). */
const atMost = (kind: string) => `${kind} at most`;

/** The quickest of each kind over several records of durations (each as `parseDurations` reads it). */
export function quickestOf(records: readonly Readonly<Record<string, number>>[]): Record<string, number> {
  const quickest: Record<string, number> = {};
  for (const record of records) for (const [kind, ms] of Object.entries(record)) quickest[kind] = Math.min(ms, quickest[kind] ?? Infinity);
  return quickest;
}

/** Longest text kept (a Pulumi Cloud stack tag's value holds 256 characters). */
export const MAX_TEXT_LENGTH = 256;

/** `{"restore":70123}`: whole milliseconds, kinds in order, the longest-named dropped first while it is too long. */
export function formatDurations(durations: Readonly<Record<string, number>>): string {
  const kinds = Object.keys(durations)
    .filter((k) => Number.isFinite(durations[k]) && durations[k] > 0)
    .sort();
  for (;;) {
    const text = JSON.stringify(Object.fromEntries(kinds.map((k) => [k, Math.round(durations[k])])));
    if (text.length <= MAX_TEXT_LENGTH || kinds.length === 0) return text;
    const longest = kinds.reduce((a, b) => (b.length > a.length ? b : a));
    kinds.splice(kinds.indexOf(longest), 1);
  }
}

/** What `formatDurations` wrote; anything else (absent, damaged, edited by hand) gives what is valid in it, or nothing. */
export function parseDurations(text: string | undefined): Record<string, number> {
  if (!text) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return {};
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return {};
  return Object.fromEntries(
    Object.entries(parsed).filter((e): e is [string, number] => typeof e[1] === "number" && Number.isFinite(e[1]) && e[1] > 0),
  );
}

/** A kept figure is written again only when the new one differs by more than this share (a stack write costs a second). */
export const REWRITE_SHARE = 0.1;

/** The text to keep after a command, when what it knows differs notably from what it was given (else nothing to write). */
export function durationsToKeep(given: Readonly<Record<string, number>>, known: Readonly<Record<string, number>>): string | undefined {
  const kept = parseDurations(formatDurations(given));
  const now = parseDurations(formatDurations(known));
  const differs = (kind: string) => !(kind in kept) || Math.abs(now[kind] - kept[kind]) > REWRITE_SHARE * kept[kind];
  const changed = Object.keys(now).some(differs) || Object.keys(kept).some((kind) => !(kind in now));
  return changed ? formatDurations(known) : undefined;
}
