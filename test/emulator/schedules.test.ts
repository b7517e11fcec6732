import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Receiver } from "../../emulator/services/automation/testReceiver";
import { startTestEmulator, type Client } from "./helpers";

// At this time scale a minute schedule fires every 60 ms.
const TIME_SCALE = 0.001;
/** Several minute intervals at TIME_SCALE: long enough for a schedule that would fire to have fired. */
const SEVERAL_INTERVALS_MS = 300;

let c: Client;
let receiver: Receiver;

beforeAll(async () => {
  c = await startTestEmulator({ timeScale: TIME_SCALE });
  receiver = await Receiver.start();
});

afterAll(async () => {
  await c.emu.close();
  await receiver.close();
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function created(client: Client, table: string, body: Record<string, unknown>): Promise<string> {
  const reply = await client.post(`/api/v4/${table}`, body);
  expect(reply.status).toBe(201);
  return reply.body.$key;
}

/** A webhook task triggered by a new schedule (every minute unless `schedule` says otherwise). */
async function scheduledTask(
  client: Client,
  name: string,
  opts: { task?: Record<string, unknown>; schedule?: Record<string, unknown> } = {},
) {
  const hook = await created(client, "webhook_urls", { name: `${name}-hook`, url: receiver.url, retries: 0 });
  const task = await created(client, "tasks", {
    name,
    owner: `webhook_urls/${hook}`,
    settings_args: { message: "tick ${NAME}" },
    ...opts.task,
  });
  const schedule = await created(client, "task_schedules", { name: `${name}-schedule`, repeat_every: "minute", ...opts.schedule });
  await created(client, "task_schedule_triggers", { task, schedule });
  return { task, schedule };
}

/** The delivery log rows of a task, read through the API. */
async function deliveries(client: Client, task: string): Promise<any[]> {
  return (await client.get(`/api/v4/webhooks?filter=task eq ${task}&fields=all`)).body;
}

function sentAtLeast(client: Client, task: string, count: number): Promise<any[]> {
  return client.waitFor(
    `/api/v4/webhooks?filter=task eq ${task}&fields=all`,
    (rows: any[]) => rows.filter((r) => r.status === "sent").length >= count,
  );
}

describe("a schedule runs the tasks it triggers", () => {
  test("an enabled schedule runs its enabled task once per interval: deliveries carry the task, last_run is set", async () => {
    const { task } = await scheduledTask(c, "every-minute");
    const rows = await sentAtLeast(c, task, 2);
    expect(rows[0]).toMatchObject({ task: Number(task), message: "tick every-minute" });
    expect(receiver.received.filter((r) => r.body === "tick every-minute").length).toBeGreaterThanOrEqual(2);
    expect((await c.get(`/api/v4/tasks/${task}?fields=last_run`)).body.last_run).toBeGreaterThan(0);
  });

  test("a disabled task is not run by its schedule", async () => {
    const { task } = await scheduledTask(c, "task-off", { task: { enabled: false } });
    await pause(SEVERAL_INTERVALS_MS);
    expect(await deliveries(c, task)).toEqual([]);
  });
});

describe("enabling, disabling and deleting a schedule", () => {
  test("a disabled schedule does not fire; PUT {enabled: true} starts it", async () => {
    const { task, schedule } = await scheduledTask(c, "schedule-off", { schedule: { enabled: false } });
    await pause(SEVERAL_INTERVALS_MS);
    expect(await deliveries(c, task)).toEqual([]);
    expect((await c.put(`/api/v4/task_schedules/${schedule}`, { enabled: true })).status).toBe(200);
    await sentAtLeast(c, task, 1);
  });

  test("PUT {enabled: false} stops a schedule that was firing", async () => {
    const { task, schedule } = await scheduledTask(c, "schedule-paused");
    await sentAtLeast(c, task, 1);
    expect((await c.put(`/api/v4/task_schedules/${schedule}`, { enabled: false })).status).toBe(200);
    const before = (await deliveries(c, task)).length;
    await pause(SEVERAL_INTERVALS_MS);
    expect(await deliveries(c, task)).toHaveLength(before);
  });

  test("deleting the schedule stops it and removes its triggers", async () => {
    const { task, schedule } = await scheduledTask(c, "schedule-deleted");
    await sentAtLeast(c, task, 1);
    expect((await c.del(`/api/v4/task_schedules/${schedule}`)).status).toBe(200);
    const before = (await deliveries(c, task)).length;
    await pause(SEVERAL_INTERVALS_MS);
    expect(await deliveries(c, task)).toHaveLength(before);
    expect((await c.get(`/api/v4/task_schedule_triggers?filter=schedule eq ${schedule}`)).body).toEqual([]);
  });
});

describe("persistence", () => {
  test("a schedule keeps firing after a restart with the same data dir", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "vplatform-schedules-"));
    try {
      const first = await startTestEmulator({ dataDir, adminPassword: "pw", timeScale: TIME_SCALE });
      const { task } = await scheduledTask(first, "survivor");
      await sentAtLeast(first, task, 1);
      await first.emu.close();
      const second = await startTestEmulator({ dataDir, adminPassword: "pw", timeScale: TIME_SCALE });
      try {
        const before = (await deliveries(second, task)).length;
        await second.waitFor(`/api/v4/webhooks?filter=task eq ${task}`, (rows: any[]) => rows.length > before);
        await sentAtLeast(second, task, before + 1);
      } finally {
        await second.emu.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
