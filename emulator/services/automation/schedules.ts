/**
 * Task schedules fire. `nextRun` is the calendar (UTC, seconds): when a
 * `task_schedules` row runs next. Each enabled schedule holds one timer on the
 * context's scheduler; when it fires, every enabled task the schedule triggers
 * (`task_schedule_triggers`) runs, and the timer is set for the run after.
 *
 * The wait between two runs is scaled by the time scale, so a schedule lives on
 * its own timeline: at timeScale 0.01 a minute schedule fires every 0.6 s
 * (timestamps in rows stay real time). A change to the row re-arms it from now.
 */
import type { EmulatorContext } from "../../engine/context";
import type { Row, RowKey } from "../../model/types";
import { runtimeOf } from "./runtime";
import { runTask } from "./tasks";
import { AUTOMATION } from "../../model/names/automation";

const DAY_S = 86_400;
/** Row fields of the weekdays, by `Date#getUTCDay()`. */
const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];
/** Candidate periods looked at before giving up: a weekday cycle is at most 7, plus one for a day already past its time. */
const MAX_PERIODS = 16;
/** setTimeout's limit; longer waits are made of several timers. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** Real milliseconds at least between two runs, so a tiny or zero time scale cannot make a schedule spin. */
const MIN_RUN_GAP_MS = 50;

const num = (value: unknown): number => Number(value ?? 0);
const dayOf = (t: number): number => Math.floor(t / DAY_S) * DAY_S;
const runsOn = (schedule: Row, day: number): boolean => schedule[WEEKDAYS[new Date(day * 1000).getUTCDay()]] === true;

/** Days (UTC midnights, ascending, none before `fromDay`) on which the schedule may run. */
function* runDays(schedule: Row, firstDay: number, fromDay: number): Generator<number> {
  const every = Math.max(1, num(schedule.repeat_iteration));
  const repeat = schedule.repeat_every;
  if (repeat === "month" || repeat === "year") {
    // Weekdays do not apply: the run is on a date. A day past the month's end is its last day (31 → 30, Feb 29 → 28).
    const first = new Date(firstDay * 1000);
    const months = repeat === "month" ? every : every * 12;
    const date = repeat === "month" && num(schedule.day_of_month) > 0 ? num(schedule.day_of_month) : first.getUTCDate();
    const from = new Date(fromDay * 1000);
    const monthsToFrom = (from.getUTCFullYear() - first.getUTCFullYear()) * 12 + from.getUTCMonth() - first.getUTCMonth();
    const skip = Math.max(0, Math.floor(monthsToFrom / months) - 1);
    for (let k = skip; k < skip + MAX_PERIODS; k++) {
      const month = first.getUTCMonth() + k * months;
      const last = new Date(Date.UTC(first.getUTCFullYear(), month + 1, 0)).getUTCDate();
      const day = Date.UTC(first.getUTCFullYear(), month, Math.min(date, last)) / 1000;
      if (day >= fromDay) yield day;
    }
    return;
  }
  if (repeat === "week") {
    // Every `every`-th week counted from the start's week (weeks begin on Monday), on its checked weekdays.
    const period = every * 7 * DAY_S;
    const monday = firstDay - ((new Date(firstDay * 1000).getUTCDay() + 6) % 7) * DAY_S;
    const skip = Math.max(0, Math.floor((fromDay - monday) / period));
    for (let k = skip; k < skip + MAX_PERIODS; k++) {
      for (let d = 0; d < 7; d++) {
        const day = monday + k * period + d * DAY_S;
        if (day >= firstDay && day >= fromDay && runsOn(schedule, day)) yield day;
      }
    }
    return;
  }
  // minute, hour, never: every day; day: every `every`-th day from the start's. Only checked weekdays.
  const step = (repeat === "day" ? every : 1) * DAY_S;
  const skip = Math.max(0, Math.ceil((fromDay - firstDay) / step));
  for (let k = skip; k < skip + MAX_PERIODS; k++) {
    const day = firstDay + k * step;
    if (runsOn(schedule, day)) yield day;
  }
}

/** The first run on `day` not before `from`. */
function slotOn(schedule: Row, day: number, from: number): number | undefined {
  const unit = schedule.repeat_every === "minute" ? 60 : schedule.repeat_every === "hour" ? 3600 : 0;
  if (unit === 0) {
    const at = day + num(schedule.start_time_of_day);
    return at >= from ? at : undefined;
  }
  // Minute and hour runs start again each day at the window's opening (the whole day when all_day).
  const interval = unit * Math.max(1, num(schedule.repeat_iteration));
  const [open, close] = schedule.all_day === true ? [0, DAY_S] : [num(schedule.start_time_of_day), num(schedule.end_time_of_day)];
  const at = day + open + Math.max(0, Math.ceil((from - day - open) / interval)) * interval;
  return at < day + close ? at : undefined;
}

function firstRunFrom(schedule: Row, start: number, from: number): number | undefined {
  for (const day of runDays(schedule, dayOf(start), dayOf(from))) {
    const at = slotOn(schedule, day, from);
    if (at !== undefined) return at;
  }
  return undefined;
}

/**
 * When the schedule runs next after `after` (Unix seconds), or undefined if never.
 * The start is `start_date`, or the row's `created` when 0; nothing runs after a non-zero `end_date`.
 */
export function nextRun(schedule: Row, after: number): number | undefined {
  const start = num(schedule.start_date) || num(schedule.created);
  const end = num(schedule.end_date) || Infinity;
  // `never` runs once: at its first slot from the start, whenever it is asked.
  const at =
    schedule.repeat_every === "never"
      ? firstRunFrom(schedule, start, start)
      : firstRunFrom(schedule, start, Math.max(start, Math.floor(after) + 1));
  return at !== undefined && at > after && at <= end ? at : undefined;
}

/** Waits `ms` (unscaled) on the scheduler, in several timers when one cannot hold it. */
function waitThen(ctx: EmulatorContext, key: RowKey, ms: number, then: () => void): void {
  const step = Math.min(ms, Math.floor(MAX_TIMER_MS / Math.max(1, ctx.timeScale)));
  const next = () => (step < ms ? waitThen(ctx, key, ms - step, then) : then());
  runtimeOf(ctx).scheduleTimers.set(key, ctx.schedule(step, next, MIN_RUN_GAP_MS));
}

function runScheduled(ctx: EmulatorContext, key: RowKey, at: number): void {
  for (const trigger of ctx.find(AUTOMATION.task_schedule_triggers, (t) => t.schedule === key)) {
    const task = ctx.get(AUTOMATION.tasks, trigger.task);
    if (task && task.enabled === true) runTask(ctx, task, String(task.name));
  }
  armSchedule(ctx, key, at);
}

/**
 * Sets the timer of a schedule for its next run after `from` (Unix seconds, default now), replacing any
 * timer it had; a disabled, finished or deleted schedule is left without one.
 */
export function armSchedule(ctx: EmulatorContext, key: RowKey, from = ctx.now() / 1000): void {
  const timers = runtimeOf(ctx).scheduleTimers;
  timers.get(key)?.();
  timers.delete(key);
  const schedule = ctx.get(AUTOMATION.task_schedules, key);
  if (schedule?.enabled !== true || runtimeOf(ctx).isClosed) return;
  const at = nextRun(schedule, from);
  if (at !== undefined) waitThen(ctx, key, (at - from) * 1000, () => runScheduled(ctx, key, at));
}

/** After a saved state is loaded: every schedule gets its timer again (runs missed while stopped are not made up). */
export function resumeSchedules(ctx: EmulatorContext): void {
  for (const schedule of ctx.all(AUTOMATION.task_schedules)) armSchedule(ctx, schedule.$key);
}
