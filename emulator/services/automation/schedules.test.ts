import type { Row } from "../../model/types";
import { nextRun } from "./schedules";
import { taskSchedulesTable } from "./tables";

const t = (iso: string): number => Date.parse(iso) / 1000;
const iso = (seconds: number): string => new Date(seconds * 1000).toISOString().replace(".000Z", "Z");

/** A Wednesday. */
const CREATED = t("2025-03-05T10:00:30Z");
const DEFAULTS = Object.fromEntries(Object.entries(taskSchedulesTable.fields).map(([name, field]) => [name, field.default]));
const NO_WEEKDAYS = { monday: false, tuesday: false, wednesday: false, thursday: false, friday: false, saturday: false, sunday: false };

function schedule(fields: Record<string, unknown>): Row {
  return { ...DEFAULTS, $key: 1, created: CREATED, ...fields } as Row;
}

/** The next `count` runs after `after`, ending with "none" when the schedule stops. */
function runs(s: Row, count: number, after = CREATED): string[] {
  const out: string[] = [];
  let at: number | undefined = after;
  while (out.length < count && at !== undefined) {
    at = nextRun(s, at);
    out.push(at === undefined ? "none" : iso(at));
  }
  return out;
}

describe("next run of a schedule (UTC)", () => {
  it("minute: every repeat_iteration minutes on the day's grid, after the creation time", () => {
    expect(runs(schedule({ repeat_every: "minute" }), 2)).toEqual(["2025-03-05T10:01:00Z", "2025-03-05T10:02:00Z"]);
    expect(runs(schedule({ repeat_every: "minute", repeat_iteration: 15 }), 3)).toEqual([
      "2025-03-05T10:15:00Z",
      "2025-03-05T10:30:00Z",
      "2025-03-05T10:45:00Z",
    ]);
  });

  it("hour without all_day: only inside start_time_of_day..end_time_of_day, starting again at each day's opening", () => {
    const s = schedule({
      repeat_every: "hour",
      repeat_iteration: 4,
      all_day: false,
      start_time_of_day: 8 * 3600,
      end_time_of_day: 18 * 3600,
    });
    expect(runs(s, 4)).toEqual(["2025-03-05T12:00:00Z", "2025-03-05T16:00:00Z", "2025-03-06T08:00:00Z", "2025-03-06T12:00:00Z"]);
  });

  it("day: at start_time_of_day every repeat_iteration days from the start day, on checked weekdays only", () => {
    const s = schedule({ repeat_every: "day", repeat_iteration: 2, start_time_of_day: 2 * 3600, saturday: false, sunday: false });
    expect(runs(s, 4)).toEqual(["2025-03-07T02:00:00Z", "2025-03-11T02:00:00Z", "2025-03-13T02:00:00Z", "2025-03-17T02:00:00Z"]);
  });

  it("week: the checked weekdays of every repeat_iteration-th week, weeks starting on Monday", () => {
    const s = schedule({
      repeat_every: "week",
      repeat_iteration: 2,
      start_time_of_day: 18 * 3600,
      ...NO_WEEKDAYS,
      monday: true,
      friday: true,
    });
    expect(runs(s, 4)).toEqual(["2025-03-07T18:00:00Z", "2025-03-17T18:00:00Z", "2025-03-21T18:00:00Z", "2025-03-31T18:00:00Z"]);
  });

  it("month: on day_of_month (the last day of a shorter month), whatever the weekday; 0 = the start date's day", () => {
    expect(runs(schedule({ repeat_every: "month", day_of_month: 31, ...NO_WEEKDAYS }), 3)).toEqual([
      "2025-03-31T00:00:00Z",
      "2025-04-30T00:00:00Z",
      "2025-05-31T00:00:00Z",
    ]);
    expect(runs(schedule({ repeat_every: "month", repeat_iteration: 3 }), 2)).toEqual(["2025-06-05T00:00:00Z", "2025-09-05T00:00:00Z"]);
  });

  it("year: the start date every repeat_iteration years, Feb 29 falling on Feb 28", () => {
    const s = schedule({ repeat_every: "year", start_date: t("2024-02-29T00:00:00Z"), start_time_of_day: 3600 });
    expect(runs(s, 4, t("2024-01-01T00:00:00Z"))).toEqual([
      "2024-02-29T01:00:00Z",
      "2025-02-28T01:00:00Z",
      "2026-02-28T01:00:00Z",
      "2027-02-28T01:00:00Z",
    ]);
  });

  it("never: once, at the first run time from the start", () => {
    expect(runs(schedule({ repeat_every: "never", start_time_of_day: 12 * 3600 }), 2)).toEqual(["2025-03-05T12:00:00Z", "none"]);
    expect(runs(schedule({ repeat_every: "never" }), 1)).toEqual(["2025-03-06T00:00:00Z"]);
    expect(runs(schedule({ repeat_every: "never", start_time_of_day: 12 * 3600 }), 1, t("2025-03-05T13:00:00Z"))).toEqual(["none"]);
  });

  it("nothing runs before start_date or after end_date", () => {
    const s = schedule({
      repeat_every: "minute",
      repeat_iteration: 30,
      start_date: t("2025-03-06T09:10:00Z"),
      end_date: t("2025-03-06T10:00:00Z"),
    });
    expect(runs(s, 3)).toEqual(["2025-03-06T09:30:00Z", "2025-03-06T10:00:00Z", "none"]);
  });

  it("without a checked weekday, day-based repeats never run", () => {
    for (const repeat_every of ["minute", "hour", "day", "week", "never"]) {
      expect(runs(schedule({ repeat_every, ...NO_WEEKDAYS }), 1)).toEqual(["none"]);
    }
  });
});
