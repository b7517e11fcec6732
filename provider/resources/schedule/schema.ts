/**
 * Schedule (the tables `task_schedules` and `task_schedule_triggers`): when
 * tasks run (every N minutes … years, or once), from a start to an end, on
 * which weekdays. The tasks it triggers are link rows of their own, so
 * `tasks` changes by adding and deleting links, never the schedule row.
 */
import { z } from "zod";
import { adoptSchema, apiField, keySchema, providerField, timeoutsSchema, whenValid } from "../../schemas/common";
import { raise, scheduleWindowProblems } from "../../schemas/automationRules";
import { dateCodec, timeOfDayCodec, WEEKDAYS, weekdaysCodec } from "../../schemas/fieldCodec";
import { TASK_TABLE } from "../../schemas/tables";

const isoDate = z.union([z.iso.datetime({ offset: true }), z.iso.date()], {
  error: () => "must be an ISO date: 2030-01-31 or 2030-01-31T12:00:00Z",
});
const timeOfDay = z.string().regex(/^(([01]\d|2[0-3]):[0-5]\d|24:00)$/, 'must be a time of day "HH:MM" (00:00 to 24:00, UTC)');

export const scheduleShape = {
  name: apiField(z.string().min(1).max(128), "name", "string", "Schedule name, unique on the platform"),
  description: apiField(z.string().default(""), "description", "string", "Description"),
  enabled: apiField(z.boolean().default(true), "enabled", "bool", "Whether the schedule runs its tasks"),
  repeatEvery: apiField(
    z.enum(["minute", "hour", "day", "week", "month", "year", "never"]).default("never"),
    "repeat_every",
    "string",
    "Unit of repetition; never runs once",
  ),
  repeatIteration: apiField(z.number().int().min(1).default(1), "repeat_iteration", "int", "Runs every this many units (default 1)"),
  start: apiField(isoDate.optional(), "start_date", "json", "First day (and time) the schedule may run (default: when it is created)", {
    codec: dateCodec("start_date"),
  }),
  end: apiField(isoDate.optional(), "end_date", "json", "No run after this date (default: no end)", { codec: dateCodec("end_date") }),
  startTimeOfDay: apiField(
    timeOfDay.default("00:00"),
    "start_time_of_day",
    "json",
    "Time of the run, or the window's opening for minute and hour repeats (UTC)",
    {
      codec: timeOfDayCodec("start_time_of_day"),
    },
  ),
  endTimeOfDay: apiField(timeOfDay.default("24:00"), "end_time_of_day", "json", "The window's end for minute and hour repeats (UTC)", {
    codec: timeOfDayCodec("end_time_of_day"),
  }),
  allDay: apiField(z.boolean().default(true), "all_day", "bool", "Minute and hour repeats run all day (the window is ignored)"),
  dayOfMonth: apiField(
    z.number().int().min(0).max(31).default(0),
    "day_of_month",
    "int",
    "Month repeats: the day of the month (0 = the start's day)",
  ),
  days: apiField(
    z.array(z.enum(WEEKDAYS)).default([...WEEKDAYS]),
    "monday",
    "json",
    "Weekdays it runs on (not for month and year repeats; default all)",
    {
      codec: weekdaysCodec,
    },
  ),
  tasks: providerField(
    z.array(keySchema).default([]),
    "Keys of the tasks the schedule runs (Task ids): each is a link row, added and deleted without touching the schedule",
    { onChange: "action", references: { table: TASK_TABLE, noun: "task" } },
  ),
  adopt: adoptSchema,
  timeouts: timeoutsSchema,
};

export const scheduleInputsSchema = z.strictObject(scheduleShape).superRefine(
  (s, ctx) => {
    raise(ctx, scheduleWindowProblems(s.start, s.end));
    if (s.endTimeOfDay < s.startTimeOfDay)
      raise(ctx, [
        {
          path: ["endTimeOfDay"],
          message: `endTimeOfDay ${s.endTimeOfDay} is before startTimeOfDay ${s.startTimeOfDay}: give a later end`,
        },
      ]);
  },
  whenValid("start", "end", "startTimeOfDay", "endTimeOfDay"),
);
export type ScheduleInputs = z.output<typeof scheduleInputsSchema>;
