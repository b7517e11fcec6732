// A class that keeps its own hours, under the real engine: a lab file's calendar (weekly sessions in
// Europe/Paris, an end of term) becomes the platform's own tasks and schedules. On the emulator's manual
// clock, advancing to a session's start powers the class on, to its stop powers it off, and past the end
// the VMs are off, the copies' users disabled and their keys answer 401; nothing of ours runs meanwhile (no
// request). The preview prints the next start, stop and end; a schedule changed on the platform is drift; a second preview plans
// no change.
import * as fs from "node:fs";
import * as path from "node:path";
import got from "got";
import { buildEnvironment } from "../../env/build-environment";
import { loadEnvironment } from "../../env/load-environment";
import { createLocalStack, findRepoRoot } from "../../env/local-stack";
import { calendarInstant, type LabCalendar, nextCalendarEvents, offsetAt } from "../../provider/plan/labCalendar";
import { collectInto, type CountedStack, useCountedStack } from "./countedStack";
import { e2eWorkDir } from "./harness";

const ZONE = "Europe/Paris";
const root = findRepoRoot();
const HOUR = 3_600_000;
let calendar: LabCalendar;
/** The class file, its calendar made from the platform's time when the test starts (sessions every day, a 3-day term). */
const classFile = (c: LabCalendar) => `
labs:
  - name: cal
    copies: 3
    pool: 10.120.0.0/16
    vms:
      - name: web
        nics: [{ name: eth0 }]
    user: {}
    apiKey: {}
    calendar:
      timeZone: ${c.timeZone}
      sessions:
        - days: [monday, tuesday, wednesday, thursday, friday, saturday, sunday]
          start: "${c.sessions![0].start}"
          stop: "${c.sessions![0].stop}"
      ends: ${c.ends}
`;
const run = useCountedStack("lab-calendar", () => Promise.resolve(buildEnvironment(loadEnvironment("class.yaml", classFile(calendar)))), {
  timeScale: 0.01,
  clock: "manual",
});

/** The platform's time, as its answers say (the Date header; the manual clock stands still between advances). */
async function platformNow(r: CountedStack): Promise<number> {
  const answer = await got(`${r.emu.url}/version.json`, { https: { certificateAuthority: r.emu.caCert } });
  return Date.parse(String(answer.headers.date));
}

/** Moves the platform's clock to `at` (ms since the epoch), running every schedule and transition due by then. */
async function advanceTo(r: CountedStack, at: number): Promise<void> {
  r.emu.advanceClock(Math.max(0, at - (await platformNow(r))));
}

/** Advances the manual clock while the engine works, so VM and vnet transitions end (each step a second of platform time). */
async function whileClockRuns<T>(r: CountedStack, work: () => Promise<T>): Promise<T> {
  const timer = setInterval(() => r.emu.advanceClock(1000), 20);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

interface CopyOut {
  name: string;
  apiKey: { id: string; secret: string };
  vms: { web: { id: string } };
}
let copies: CopyOut[];

const statuses = async (r: CountedStack) =>
  Promise.all(copies.map(async (c) => (await r.api(`/v4/vms/${c.vms.web.id}?fields=machine%23status%23status%20as%20status`)).status));
const keyStatus = (r: CountedStack, secret: string) =>
  got(`${r.emu.url}/api/v4/vms?fields=name`, {
    headers: { authorization: `Bearer ${secret}` },
    https: { certificateAuthority: r.emu.caCert },
    throwHttpErrors: false,
  }).then((a) => a.statusCode);

describe("a lab's calendar runs on the platform's own schedules", () => {
  test("up: per VM a power-on and a power-off task, the lab's schedules; the preview prints the next start, stop and end", async () => {
    const now = await platformNow(run());
    // A session from the next full hour + 1 to an hour later, every day, in Paris time; the term ends in 3 days.
    const local = new Date(now + offsetAt(now, ZONE));
    const startHour = (local.getUTCHours() + 2) % 24;
    const hh = (h: number) => `${String(h).padStart(2, "0")}:00`;
    const ends = new Date(local.getTime() + 3 * 24 * HOUR).toISOString().slice(0, 10);
    calendar = { timeZone: ZONE, sessions: [{ days: [], start: hh(startHour), stop: hh(startHour + 1) }], ends };

    const preview = await run().stack.preview(collectInto(run()));
    const events = nextCalendarEvents(
      {
        ...calendar,
        sessions: [{ ...calendar.sessions![0], days: ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] }],
      },
      now,
    );
    // A session ending at 24:00 (started at 23:00) is shown stopping at 00:00 of the next day.
    expect(preview.stdout).toMatch(
      new RegExp(
        `lab 'cal' calendar: next start \\w{3} \\S+ ${hh(startHour)} Europe/Paris \\(\\d\\d:00 UTC\\); next stop \\w{3} \\S+ ${hh((startHour + 1) % 24)} Europe/Paris`,
      ),
    );
    expect(preview.stdout).toMatch(/ends \w{3} \S+ 00:00 Europe\/Paris \(\d\d:00 UTC\) \(keys stop working, VMs power off\)/);

    await run().reset();
    const up = await whileClockRuns(run(), () => run().stack.up(collectInto(run())));
    expect(up.summary.result).toBe("succeeded");
    copies = Object.values(up.outputs.labs.value.cal.copies);
    const tasks = await run().api("/v4/tasks?fields=name,table,action&sort=+name");
    expect(tasks).toEqual(
      ["01", "02", "03"].flatMap((n) => [
        { name: `cal-${n}-disable`, table: "users", action: "disable" },
        { name: `cal-${n}-web-off`, table: "vms", action: "poweroff" },
        { name: `cal-${n}-web-on`, table: "vms", action: "poweron" },
      ]),
    );
    const schedules = await run().api("/v4/task_schedules?fields=name,repeat_every&sort=+name");
    expect(schedules.map((s: { name: string }) => s.name)).toEqual(expect.arrayContaining(["cal-end", "cal-s1-start", "cal-s1-stop"]));
    const counts = await run().counts();
    // eslint-disable-next-line no-console
    console.log(
      `up of a 3-copy class with a calendar: ${counts.total} requests;`,
      counts.entries.filter((e) => /^task/.test(e.table)),
    );
    expect(await statuses(run())).toEqual(["stopped", "stopped", "stopped"]);
    expect(events.nextStart).toBeDefined();
  }, 600_000);

  test("a second preview plans no change", async () => {
    const preview = await run().stack.preview(collectInto(run()));
    expect(Object.keys(preview.changeSummary ?? {}).filter((k) => k !== "same")).toEqual([]);
  }, 300_000);

  test("advancing the clock to the session's start powers the class on, to its stop powers it off; no request meanwhile", async () => {
    await run().reset();
    const { nextStart, nextStop } = nextCalendarEvents(
      {
        ...calendar,
        sessions: [{ ...calendar.sessions![0], days: ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] }],
      },
      await platformNow(run()),
    );
    await advanceTo(run(), nextStart! - 60_000);
    expect(await statuses(run())).toEqual(["stopped", "stopped", "stopped"]);
    await advanceTo(run(), nextStart! + 10_000);
    expect(await statuses(run())).toEqual(["running", "running", "running"]);
    await advanceTo(run(), nextStop! + 10_000);
    expect(await statuses(run())).toEqual(["stopped", "stopped", "stopped"]);
    // The only requests are this test's reads: the platform ran the class (no provider, no poller).
    const counts = await run().counts();
    expect(counts.entries.filter((e) => e.method !== "GET")).toEqual([]);
  }, 300_000);

  test("a schedule changed on the platform is drift: refresh reads it, the next up puts it back", async () => {
    const [schedule] = await run().api("/v4/task_schedules?filter=name%20eq%20'cal-s1-start'&fields=$key,start_time_of_day");
    await run().patch(`/v4/task_schedules/${schedule.$key}`, { start_time_of_day: (schedule.start_time_of_day + 3600) % 86400 });
    const preview = await run().stack.preview({ ...collectInto(run()), refresh: true });
    expect(preview.changeSummary?.update).toBeGreaterThanOrEqual(1);
    expect(preview.stdout).toMatch(/Schedule cal-s1-start\s.*\[diff: ~startTimeOfDay\]/);
    const up = await run().stack.up({ ...collectInto(run()), refresh: true });
    expect(up.summary.resourceChanges?.update).toBeGreaterThanOrEqual(1);
    expect((await run().api(`/v4/task_schedules/${schedule.$key}?fields=start_time_of_day`)).start_time_of_day).toBe(
      schedule.start_time_of_day,
    );
  }, 300_000);
  test("past the term's end the VMs are off, every copy's user disabled and its key answers 401", async () => {
    const ends = calendarInstant(calendar.ends!, ZONE, "end");
    await advanceTo(run(), ends - 60_000);
    for (const c of copies) expect(await keyStatus(run(), c.apiKey.secret)).toBe(200);
    // Running at the end (a student's own start, or the last session): the end powers them off.
    for (const c of copies) {
      const s = (await run().api(`/v4/vms/${c.vms.web.id}?fields=machine%23status%23status%20as%20status`)).status;
      if (s !== "running")
        await got.post(`${run().emu.url}/api/v4/vm_actions`, {
          username: run().emu.adminUser,
          password: run().emu.adminPassword,
          https: { certificateAuthority: run().emu.caCert },
          json: { vm: c.vms.web.id, action: "poweron" },
        });
    }
    run().emu.advanceClock(5_000);
    expect(await statuses(run())).toEqual(["running", "running", "running"]);
    await advanceTo(run(), ends + 10_000);
    expect(await statuses(run())).toEqual(["stopped", "stopped", "stopped"]);
    for (const c of copies) expect(await keyStatus(run(), c.apiKey.secret)).toBe(401);
    // The users are disabled too: a password, or a key made later, no longer logs in either.
    for (const c of copies)
      expect(await run().api(`/v4/users?filter=name%20eq%20'${c.name}'&fields=enabled`)).toEqual([{ enabled: false }]);
  }, 300_000);

  test("an end date in the past is refused at preview, naming the field, with no mutating request", async () => {
    // Run as `vplatform env` runs it: the root project, in a language host of its own.
    const work = e2eWorkDir("lab-calendar-refused-");
    try {
      const file = path.join(work, "class.yaml");
      fs.writeFileSync(file, classFile({ ...calendar, ends: "2020-01-31" }));
      const stack = await createLocalStack({
        stackName: "e2e-lab-calendar-refused",
        stateDir: path.join(work, "state"),
        connection: { endpoint: run().emu.url, apiKey: run().emu.apiKey, caCert: run().emu.caCert },
        workDir: root,
        config: { "vplatform-lab:environment": file },
      });
      await run().reset();
      const refused = await stack.preview().then(
        () => "accepted",
        (e: Error) => e.message,
      );
      expect(refused).toMatch(/lab 'cal': calendar\.ends: 2020-01-31 is in the past \(now \S+\): the term would end at once/);
      expect((await run().counts()).entries.filter((e) => e.method !== "GET")).toEqual([]);
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
      for (const f of fs.readdirSync(root)) if (/^Pulumi\.e2e-lab-calendar-refused\.yaml$/.test(f)) fs.rmSync(path.join(root, f));
    }
  }, 300_000);
});
