/**
 * A lab's calendar, planned: weekly class hours in a time zone and the end of the term, compiled to the
 * platform's own schedules (`task_schedules`, times in UTC), so the class powers on and off with no machine
 * of ours running. Pure: the time a check or a preview is judged at is passed in; what is compiled depends
 * on the file alone, so a later preview plans no change.
 *
 * The platform's schedules know no time zone: a session at 09:00 in Europe/Paris is 08:00 UTC in winter and
 * 07:00 UTC in summer. Each session's start and stop therefore becomes one weekly schedule per stretch of
 * the term with one UTC offset, bounded by its first and last run (the stretches are found by walking the
 * term's days, so a zone's every rule, its gaps and overlaps included, is the zone database's own).
 */
import { WEEKDAYS, type Weekday } from "../schemas/fieldCodec";

export interface CalendarSession {
  /** Weekdays, lowercase English names: monday … sunday. */
  days: string[];
  /** "HH:MM" local time of the time zone. */
  start: string;
  /** "HH:MM" local time, after start, on the same day (24:00 = midnight at the day's end). */
  stop: string;
}

export interface LabCalendar {
  /** IANA time zone of the sessions and dates (default UTC). */
  timeZone?: string;
  sessions?: CalendarSession[];
  /** First day of sessions (a date, or a date and time with an offset); default: from creation. */
  starts?: string;
  /** End of the term: keys expire, users are disabled, VMs power off. A date means the end of that day. */
  ends?: string;
}

/** A problem of a calendar: the field (a path under the lab, `calendar.sessions[0].stop`) and what to do. */
export interface CalendarProblem {
  field: string;
  message: string;
}

/** What a compiled schedule makes the class do when it runs. */
export type CalendarAction = "poweron" | "poweroff" | "end";

/** One platform schedule, in the Schedule resource's own terms (UTC). */
export interface CalendarSchedule {
  /** Stable within the lab: `s1-start`, `s1-start-2` (the term's second UTC offset), `end`. */
  id: string;
  action: CalendarAction;
  repeatEvery: "week" | "never";
  /** UTC weekdays. */
  days: Weekday[];
  /** "HH:MM" UTC. */
  startTimeOfDay: string;
  /** ISO instants (UTC): no run before `start` (its UTC day) or after `end`; absent = unbounded. */
  start?: string;
  end?: string;
}

export const DEFAULT_TIME_ZONE = "UTC";
const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
/** Without `starts`, how far before `ends` the term's days are walked: a term longer than a year names `starts`. */
const TERM_WITHOUT_START_MS = 366 * DAY_MS;

const TIME = /^([01]\d|2[0-3]):[0-5]\d$|^24:00$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

const minutesOf = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const hhmm = (minutes: number): string => `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
const isoOf = (ms: number): string => new Date(ms).toISOString().replace(".000Z", "Z");
/** Monday = 0 … Sunday = 6, of a day number (days since the epoch, which was a Thursday). */
const weekdayIndex = (day: number): number => (((day + 3) % 7) + 7) % 7;

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();
/** Milliseconds the zone's wall clock is ahead of UTC at `ms`. */
export function offsetAt(ms: number, zone: string): number {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
    });
    formatters.set(zone, format);
  }
  const part = Object.fromEntries(format.formatToParts(ms).map((p) => [p.type, Number(p.value)]));
  const wall = Date.UTC(part.year, part.month - 1, part.day, part.hour, part.minute);
  return wall - Math.floor(ms / MINUTE_MS) * MINUTE_MS;
}

/** The instant of local `minutes` after midnight of local day `day` (days since the epoch) in the zone. */
export function localToUtc(day: number, minutes: number, zone: string): number {
  const wall = day * DAY_MS + minutes * MINUTE_MS;
  const first = wall - offsetAt(wall, zone);
  return wall - offsetAt(first, zone);
}

/** The local day (days since the epoch) an instant falls on in the zone. */
const localDayOf = (ms: number, zone: string): number => Math.floor((ms + offsetAt(ms, zone)) / DAY_MS);

/** `starts` or `ends` as an instant: a date is the start (`starts`) or the end (`ends`) of that local day. */
export function calendarInstant(value: string, zone: string, edge: "start" | "end"): number {
  if (!DATE.test(value)) return Date.parse(value);
  const day = Date.parse(`${value}T00:00:00Z`) / DAY_MS;
  return localToUtc(edge === "start" ? day : day + 1, 0, zone);
}

/** A calendar date that exists (2027-02-30 does not). */
const realDate = (ymd: string): boolean => {
  const ms = Date.parse(`${ymd}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === ymd;
};

/** Whether the zone's offset changes within the year from `fromMs` (a zone with daylight saving time). */
function offsetChanges(zone: string, fromMs: number): boolean {
  const first = offsetAt(fromMs, zone);
  for (let month = 1; month <= 12; month++) if (offsetAt(fromMs + month * 30 * DAY_MS, zone) !== first) return true;
  return false;
}

/**
 * Every problem of a calendar; judged at `nowMs`, an end in the past is refused too (a file is checked without
 * it, so a destroy after the term still loads it; the program judges it at preview).
 */
export function calendarProblems(calendar: LabCalendar, nowMs?: number): CalendarProblem[] {
  const problems: CalendarProblem[] = [];
  const zone = calendar.timeZone ?? DEFAULT_TIME_ZONE;
  const zoneOk = isTimeZone(zone);
  if (!zoneOk) {
    problems.push({
      field: "calendar.timeZone",
      message: `unknown time zone '${zone}': give an IANA name such as Europe/Paris, America/New_York or UTC`,
    });
  }
  (calendar.sessions ?? []).forEach((session, i) => {
    const at = `calendar.sessions[${i}]`;
    if (session.days.length === 0) problems.push({ field: `${at}.days`, message: "is empty: name the weekdays of the session" });
    session.days.forEach((day, j) => {
      if (!(WEEKDAYS as readonly string[]).includes(day)) {
        problems.push({ field: `${at}.days[${j}]`, message: `unknown day '${day}': valid are ${WEEKDAYS.join(", ")}` });
      }
    });
    const startOk = TIME.test(session.start) && session.start !== "24:00";
    if (!startOk) problems.push({ field: `${at}.start`, message: `'${session.start}' is not a time of day "HH:MM" (00:00 to 23:59)` });
    if (!TIME.test(session.stop))
      problems.push({ field: `${at}.stop`, message: `'${session.stop}' is not a time of day "HH:MM" (00:01 to 24:00)` });
    else if (startOk && minutesOf(session.stop) <= minutesOf(session.start)) {
      problems.push({
        field: `${at}.stop`,
        message: `stop ${session.stop} is not after start ${session.start}: a session stops later the same day (24:00 at the latest)`,
      });
    }
  });
  const dates: Partial<Record<"starts" | "ends", number>> = {};
  for (const field of ["starts", "ends"] as const) {
    const value = calendar[field];
    if (value === undefined) continue;
    if (!DATE.test(value) && !DATETIME.test(value)) {
      problems.push({ field: `calendar.${field}`, message: `'${value}' is not a date: give 2027-05-14 or 2027-05-14T18:00:00+02:00` });
    } else if (!realDate(value.slice(0, 10)) || Number.isNaN(Date.parse(DATE.test(value) ? `${value}T00:00:00Z` : value))) {
      problems.push({ field: `calendar.${field}`, message: `'${value}' is not a valid date` });
    } else if (zoneOk) dates[field] = calendarInstant(value, zone, field === "starts" ? "start" : "end");
  }
  if (dates.ends !== undefined && nowMs !== undefined && dates.ends <= nowMs) {
    problems.push({
      field: "calendar.ends",
      message: `${calendar.ends} is in the past (now ${isoOf(nowMs!)}): the term would end at once; give a later date or remove ends`,
    });
  } else if (dates.ends !== undefined && dates.starts !== undefined && dates.ends <= dates.starts) {
    problems.push({ field: "calendar.ends", message: `${calendar.ends} is not after starts ${calendar.starts}` });
  }
  if (
    zoneOk &&
    (calendar.sessions ?? []).length > 0 &&
    calendar.ends === undefined &&
    offsetChanges(zone, dates.starts ?? nowMs ?? Date.now())
  ) {
    problems.push({
      field: "calendar.ends",
      message: `is required with ${zone}, whose offset from UTC changes during the year: the platform's schedules run in UTC, so each stretch of the term with one offset gets its own schedules, which needs the term's end`,
    });
  }
  return problems;
}

interface Occurrence {
  at: number;
  /** Minutes after UTC midnight, and how many days the UTC weekday is ahead of the local one (0, 1 or 6). */
  minutes: number;
  shift: number;
}

/** Every run of one session event (its local days at `minutes`) between two instants, in time order. */
function occurrences(days: Weekday[], minutes: number, zone: string, fromMs: number, untilMs: number): Occurrence[] {
  const wanted = new Set(days.map((d) => WEEKDAYS.indexOf(d)));
  const out: Occurrence[] = [];
  for (let day = localDayOf(fromMs, zone) - 1; day <= localDayOf(untilMs, zone); day++) {
    if (!wanted.has(weekdayIndex(day))) continue;
    const at = localToUtc(day, minutes, zone);
    if (at < fromMs || at > untilMs) continue;
    const utcDay = Math.floor(at / DAY_MS);
    out.push({ at, minutes: Math.round((at - utcDay * DAY_MS) / MINUTE_MS), shift: (((utcDay - day) % 7) + 7) % 7 });
  }
  return out;
}

/** Local weekdays at `minutes` as UTC weekdays and time, for a zone with one offset (`offsetMs`). */
function shifted(days: Weekday[], minutes: number, offsetMs: number): { days: Weekday[]; minutes: number } {
  const utc = minutes - offsetMs / MINUTE_MS;
  const shift = Math.floor(utc / 1440);
  const weekdays = new Set(days.map((d) => (((WEEKDAYS.indexOf(d) + shift) % 7) + 7) % 7));
  return { days: WEEKDAYS.filter((_, index) => weekdays.has(index)), minutes: utc - shift * 1440 };
}

/**
 * The platform schedules of a valid calendar (calendarProblems answered none): per session its start
 * (poweron) and stop (poweroff) schedules, one per stretch of one UTC offset, and the end of the term.
 */
export function compileCalendar(calendar: LabCalendar): CalendarSchedule[] {
  const zone = calendar.timeZone ?? DEFAULT_TIME_ZONE;
  const starts = calendar.starts === undefined ? undefined : calendarInstant(calendar.starts, zone, "start");
  const ends = calendar.ends === undefined ? undefined : calendarInstant(calendar.ends, zone, "end");
  const out: CalendarSchedule[] = [];
  (calendar.sessions ?? []).forEach((session, i) => {
    const days = WEEKDAYS.filter((d) => session.days.includes(d));
    for (const [event, action, time] of [
      ["start", "poweron", session.start],
      ["stop", "poweroff", session.stop],
    ] as const) {
      const minutes = minutesOf(time);
      const id = `s${i + 1}-${event}`;
      if (ends === undefined) {
        // A zone with one offset (calendarProblems refused the others): one open schedule.
        const utc = shifted(days, minutes, offsetAt(starts ?? 0, zone));
        out.push({
          id,
          action,
          repeatEvery: "week",
          days: utc.days,
          startTimeOfDay: hhmm(utc.minutes),
          ...(starts ? { start: isoOf(starts) } : {}),
        });
        continue;
      }
      const from = starts ?? ends - TERM_WITHOUT_START_MS;
      // Consecutive runs at one UTC time and weekday shift form a stretch: one schedule.
      const stretches: Occurrence[][] = [];
      for (const run of occurrences(days, minutes, zone, from, ends)) {
        const last = stretches.at(-1)?.at(-1);
        if (last && last.minutes === run.minutes && last.shift === run.shift) stretches.at(-1)!.push(run);
        else stretches.push([run]);
      }
      stretches.forEach((runs, k) => {
        const shift = runs[0].shift;
        out.push({
          id: k === 0 ? id : `${id}-${k + 1}`,
          action,
          repeatEvery: "week",
          days: WEEKDAYS.filter((_, index) => days.some((d) => (WEEKDAYS.indexOf(d) + shift) % 7 === index)),
          startTimeOfDay: hhmm(runs[0].minutes),
          // The first stretch without `starts` runs from creation; the others from their first run's UTC day.
          ...(k === 0 && starts === undefined ? {} : { start: isoOf(Math.floor(runs[0].at / DAY_MS) * DAY_MS) }),
          end: isoOf(runs.at(-1)!.at),
        });
      });
    }
  });
  if (ends !== undefined) {
    const utcDay = Math.floor(ends / DAY_MS);
    out.push({
      id: "end",
      action: "end",
      repeatEvery: "never",
      days: [...WEEKDAYS],
      startTimeOfDay: hhmm(Math.round((ends - utcDay * DAY_MS) / MINUTE_MS)),
      start: isoOf(ends),
    });
  }
  return out;
}

/** The class's next events after `nowMs`, in the lab's own terms (local session times, the term's end). */
export interface CalendarEvents {
  nextStart?: number;
  nextStop?: number;
  ends?: number;
}

export function nextCalendarEvents(calendar: LabCalendar, nowMs: number): CalendarEvents {
  const zone = calendar.timeZone ?? DEFAULT_TIME_ZONE;
  const starts = calendar.starts === undefined ? nowMs : Math.max(nowMs, calendarInstant(calendar.starts, zone, "start"));
  const ends = calendar.ends === undefined ? undefined : calendarInstant(calendar.ends, zone, "end");
  const until = Math.min(ends ?? Infinity, starts + 8 * DAY_MS);
  const first = (event: "start" | "stop"): number | undefined => {
    const times = (calendar.sessions ?? []).flatMap((s) =>
      occurrences(
        WEEKDAYS.filter((d) => s.days.includes(d)),
        minutesOf(s[event]),
        zone,
        starts + 1,
        until,
      ).map((o) => o.at),
    );
    return times.length ? Math.min(...times) : undefined;
  };
  const events: CalendarEvents = {};
  const nextStart = first("start");
  const nextStop = first("stop");
  if (nextStart !== undefined) events.nextStart = nextStart;
  if (nextStop !== undefined) events.nextStop = nextStop;
  if (ends !== undefined && ends > nowMs) events.ends = ends;
  return events;
}

/** "Mon 2027-01-11 09:00 Europe/Paris (08:00 UTC)". */
export function formatCalendarTime(ms: number, zone: string): string {
  const local = new Date(ms + offsetAt(ms, zone));
  const day = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][local.getUTCDay()];
  const text = `${day} ${local.toISOString().slice(0, 10)} ${local.toISOString().slice(11, 16)} ${zone}`;
  return zone === "UTC" ? text : `${text} (${new Date(ms).toISOString().slice(11, 16)} UTC)`;
}

/** One line for a plan: "next start Mon 2027-01-11 09:00 Europe/Paris (08:00 UTC), next stop …, ends …". */
export function describeCalendarEvents(calendar: LabCalendar, nowMs: number): string {
  const zone = calendar.timeZone ?? DEFAULT_TIME_ZONE;
  const events = nextCalendarEvents(calendar, nowMs);
  const parts = [
    events.nextStart !== undefined ? `next start ${formatCalendarTime(events.nextStart, zone)}` : undefined,
    events.nextStop !== undefined ? `next stop ${formatCalendarTime(events.nextStop, zone)}` : undefined,
    events.ends !== undefined ? `ends ${formatCalendarTime(events.ends, zone)} (keys stop working, VMs power off)` : undefined,
  ].filter((p) => p !== undefined);
  return parts.length ? parts.join("; ") : "no session ahead";
}
