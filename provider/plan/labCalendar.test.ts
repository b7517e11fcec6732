import { nextRun } from "../../emulator/services/automation/schedules";
import { WEEKDAYS } from "../schemas/fieldCodec";
import {
  type CalendarSchedule,
  calendarProblems,
  compileCalendar,
  describeCalendarEvents,
  type LabCalendar,
  localToUtc,
  nextCalendarEvents,
} from "./labCalendar";

const NOW = Date.parse("2027-01-04T12:00:00Z"); // a Monday
const ms = (iso: string) => Date.parse(iso);
const fields = (calendar: LabCalendar) => calendarProblems(calendar, NOW).map((p) => p.field);
const session = { days: ["monday", "wednesday"], start: "09:00", stop: "11:00" };

/** The emulator's reading of a compiled schedule: what the platform would run. */
function asRow(s: CalendarSchedule, created: number) {
  return {
    $key: 1,
    created: created / 1000,
    repeat_every: s.repeatEvery,
    repeat_iteration: 1,
    start_date: s.start ? ms(s.start) / 1000 : 0,
    end_date: s.end ? ms(s.end) / 1000 : 0,
    start_time_of_day: Number(s.startTimeOfDay.slice(0, 2)) * 3600 + Number(s.startTimeOfDay.slice(3)) * 60,
    end_time_of_day: 86400,
    all_day: true,
    day_of_month: 0,
    ...Object.fromEntries(WEEKDAYS.map((d) => [d, s.days.includes(d)])),
  };
}

/** Every run of the compiled schedules of one action between two instants, as the emulator runs them. */
function platformRuns(schedules: CalendarSchedule[], action: string, from: number, until: number): string[] {
  const out: number[] = [];
  for (const s of schedules.filter((x) => x.action === action)) {
    for (let at = nextRun(asRow(s, from), from / 1000); at !== undefined && at * 1000 <= until; at = nextRun(asRow(s, from), at))
      out.push(at * 1000);
  }
  return out.sort((a, b) => a - b).map((t) => new Date(t).toISOString());
}

/** The session's local runs, walked day by day in the zone: what the class expects. */
function expectedRuns(zone: string, days: string[], time: string, from: number, until: number): string[] {
  const out: string[] = [];
  const minutes = Number(time.slice(0, 2)) * 60 + Number(time.slice(3));
  for (let day = Math.floor(from / 86_400_000) - 1; day <= until / 86_400_000 + 1; day++) {
    if (!days.includes(WEEKDAYS[(day + 3) % 7])) continue;
    const at = localToUtc(day, minutes, zone);
    if (at >= from && at <= until) out.push(new Date(at).toISOString());
  }
  return out;
}

describe("bad input is refused naming the field", () => {
  it("an unknown day names the day's place in the list", () => {
    expect(calendarProblems({ sessions: [{ ...session, days: ["monday", "funday"] }] }, NOW)).toEqual([
      { field: "calendar.sessions[0].days[1]", message: expect.stringMatching(/unknown day 'funday': valid are monday, .*sunday/) },
    ]);
  });
  it("no day at all", () => expect(fields({ sessions: [{ ...session, days: [] }] })).toEqual(["calendar.sessions[0].days"]));
  it("stop before (or at) start names stop", () => {
    expect(calendarProblems({ sessions: [session, { ...session, start: "11:00", stop: "09:00" }] }, NOW)).toEqual([
      { field: "calendar.sessions[1].stop", message: expect.stringMatching(/stop 09:00 is not after start 11:00/) },
    ]);
    expect(fields({ sessions: [{ ...session, stop: "09:00" }] })).toEqual(["calendar.sessions[0].stop"]);
  });
  it("times that are not HH:MM", () => {
    expect(fields({ sessions: [{ ...session, start: "9am", stop: "25:00" }] })).toEqual([
      "calendar.sessions[0].start",
      "calendar.sessions[0].stop",
    ]);
    expect(fields({ sessions: [{ ...session, start: "24:00", stop: "24:00" }] })).toEqual(["calendar.sessions[0].start"]);
    expect(fields({ sessions: [{ ...session, start: "22:00", stop: "24:00" }] })).toEqual([]);
  });
  it("an unknown time zone", () => {
    expect(calendarProblems({ timeZone: "Mars/Olympus", sessions: [session] }, NOW)).toEqual([
      { field: "calendar.timeZone", message: expect.stringMatching(/unknown time zone 'Mars\/Olympus'/) },
    ]);
  });
  it("an end date in the past, or not after the start", () => {
    expect(calendarProblems({ ends: "2026-12-31" }, NOW)).toEqual([
      { field: "calendar.ends", message: expect.stringMatching(/2026-12-31 is in the past \(now 2027-01-04T12:00:00Z\)/) },
    ]);
    expect(fields({ starts: "2027-03-01", ends: "2027-02-01" })).toEqual(["calendar.ends"]);
    expect(fields({ ends: "2027-02-30" })).toEqual(["calendar.ends"]);
    expect(fields({ ends: "next friday" })).toEqual(["calendar.ends"]);
    expect(fields({ starts: "2027-01-10", ends: "2027-05-14T18:00:00+02:00" })).toEqual([]);
  });
  it("sessions in a zone with daylight saving time need the term's end; a zone of one offset does not", () => {
    expect(calendarProblems({ timeZone: "Europe/Paris", sessions: [session] }, NOW)).toEqual([
      { field: "calendar.ends", message: expect.stringMatching(/required with Europe\/Paris, whose offset from UTC changes/) },
    ]);
    expect(fields({ timeZone: "Asia/Tokyo", sessions: [session] })).toEqual([]);
    expect(fields({ sessions: [session] })).toEqual([]);
  });
});

describe("compiled schedules run exactly the class's hours on the platform (the emulator's own calendar)", () => {
  const zones = [
    "UTC",
    "Europe/Paris",
    "America/New_York",
    "Asia/Kolkata",
    "Pacific/Auckland",
    "Pacific/Kiritimati",
    "America/Los_Angeles",
  ];
  const sessionsOf = [
    [{ days: ["monday", "wednesday", "friday"], start: "09:00", stop: "11:00" }],
    [
      { days: ["tuesday"], start: "00:30", stop: "02:15" },
      { days: ["sunday", "saturday"], start: "21:00", stop: "24:00" },
    ],
  ];
  for (const timeZone of zones) {
    for (const sessions of sessionsOf) {
      it(`${timeZone}: ${sessions.map((s) => `${s.days.join("+")} ${s.start}-${s.stop}`).join(", ")}, over a term crossing the offset changes`, () => {
        const calendar = { timeZone, sessions, starts: "2027-01-11", ends: "2027-11-30" };
        expect(calendarProblems(calendar, NOW)).toEqual([]);
        const compiled = compileCalendar(calendar);
        const from = ms("2027-01-01T00:00:00Z");
        const until = ms("2027-12-31T00:00:00Z");
        const termStart = localToUtc(ms("2027-01-11T00:00:00Z") / 86_400_000, 0, timeZone);
        const termEnd = localToUtc(ms("2027-12-01T00:00:00Z") / 86_400_000, 0, timeZone);
        for (const [event, action] of [
          ["start", "poweron"],
          ["stop", "poweroff"],
        ] as const) {
          const expected = sessions.flatMap((s) => expectedRuns(timeZone, s.days, s[event], termStart, termEnd)).sort();
          expect(platformRuns(compiled, action, from, until)).toEqual(expected);
        }
        expect(platformRuns(compiled, "end", from, until)).toEqual([new Date(termEnd).toISOString()]);
      });
    }
  }

  it("Europe/Paris: winter, summer and winter again are three stretches per event, bounded by their runs", () => {
    const compiled = compileCalendar({ timeZone: "Europe/Paris", sessions: [session], starts: "2027-01-11", ends: "2027-11-30" });
    expect(compiled.filter((s) => s.action === "poweron")).toEqual([
      {
        id: "s1-start",
        action: "poweron",
        repeatEvery: "week",
        days: ["monday", "wednesday"],
        startTimeOfDay: "08:00",
        start: "2027-01-11T00:00:00Z",
        end: "2027-03-24T08:00:00Z",
      },
      {
        id: "s1-start-2",
        action: "poweron",
        repeatEvery: "week",
        days: ["monday", "wednesday"],
        startTimeOfDay: "07:00",
        start: "2027-03-29T00:00:00Z",
        end: "2027-10-27T07:00:00Z",
      },
      {
        id: "s1-start-3",
        action: "poweron",
        repeatEvery: "week",
        days: ["monday", "wednesday"],
        startTimeOfDay: "08:00",
        start: "2027-11-01T00:00:00Z",
        end: "2027-11-29T08:00:00Z",
      },
    ]);
    expect(compiled.at(-1)).toEqual({
      id: "end",
      action: "end",
      repeatEvery: "never",
      days: [...WEEKDAYS],
      startTimeOfDay: "23:00",
      start: "2027-11-30T23:00:00Z",
    });
  });

  it("a session crossing UTC midnight moves to the UTC weekday (Auckland Monday 09:00 is Sunday 20:00 UTC)", () => {
    const [start] = compileCalendar({
      timeZone: "Pacific/Auckland",
      sessions: [{ days: ["monday"], start: "09:00", stop: "10:00" }],
      starts: "2027-06-01",
      ends: "2027-07-01",
    });
    expect(start).toMatchObject({ days: ["sunday"], startTimeOfDay: "21:00" });
  });

  it("without an end, a zone of one offset gets one open schedule per event; without a start it runs from creation", () => {
    expect(compileCalendar({ timeZone: "Asia/Kolkata", sessions: [session] })).toEqual([
      { id: "s1-start", action: "poweron", repeatEvery: "week", days: ["monday", "wednesday"], startTimeOfDay: "03:30" },
      { id: "s1-stop", action: "poweroff", repeatEvery: "week", days: ["monday", "wednesday"], startTimeOfDay: "05:30" },
    ]);
  });

  it("only an end: one schedule, the term's end (a date is the end of that local day)", () => {
    expect(compileCalendar({ timeZone: "Europe/Paris", ends: "2027-05-14" })).toEqual([
      { id: "end", action: "end", repeatEvery: "never", days: [...WEEKDAYS], startTimeOfDay: "22:00", start: "2027-05-14T22:00:00Z" },
    ]);
    expect(compileCalendar({ ends: "2027-05-14T18:00:00+02:00" }).at(-1)).toMatchObject({
      start: "2027-05-14T16:00:00Z",
      startTimeOfDay: "16:00",
    });
  });

  it("depends on the file alone: the same calendar compiles the same schedules whenever it is planned", () => {
    const calendar = { timeZone: "Europe/Paris", sessions: [session], ends: "2027-05-14" };
    expect(compileCalendar(calendar)).toEqual(compileCalendar(structuredClone(calendar)));
  });
});

describe("the next events a preview shows", () => {
  const calendar = { timeZone: "Europe/Paris", sessions: [session], ends: "2027-05-14" };
  it("the next start and stop after now, and the end", () => {
    expect(nextCalendarEvents(calendar, NOW)).toEqual({
      nextStart: ms("2027-01-06T08:00:00Z"),
      nextStop: ms("2027-01-06T10:00:00Z"),
      ends: ms("2027-05-14T22:00:00Z"),
    });
    expect(describeCalendarEvents(calendar, NOW)).toBe(
      "next start Wed 2027-01-06 09:00 Europe/Paris (08:00 UTC); next stop Wed 2027-01-06 11:00 Europe/Paris (10:00 UTC); ends Sat 2027-05-15 00:00 Europe/Paris (22:00 UTC) (keys stop working, VMs power off)",
    );
  });
  it("no session after the end; before `starts` the first session of the term", () => {
    expect(nextCalendarEvents(calendar, ms("2027-05-14T12:00:00Z"))).toEqual({ ends: ms("2027-05-14T22:00:00Z") });
    expect(nextCalendarEvents({ ...calendar, starts: "2027-02-01" }, NOW).nextStart).toBe(ms("2027-02-01T08:00:00Z"));
    expect(describeCalendarEvents({}, NOW)).toBe("no session ahead");
  });
});
