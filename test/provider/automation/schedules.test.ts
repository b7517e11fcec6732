// A schedule made by the provider's operations runs its tasks on time (the emulator's
// clock, at time scale 0.01 a minute is 0.6 s); its tasks are link rows, added and removed
// without touching the schedule.
import { Receiver } from "../../../emulator/services/automation/testReceiver";
import { createRow, readRow } from "../../../provider/reconcile/automation/rows";
import { scheduleTasks, setScheduleTasks } from "../../../provider/resources/schedule/platform";
import { scheduleInputsSchema } from "../../../provider/resources/schedule/schema";
import { taskInputsSchema } from "../../../provider/resources/task/schema";
import { webhookInputsSchema } from "../../../provider/resources/webhook/schema";
import { countOf, once, type Site, startSite, STARTUP_MS } from "./site";
import { webhook } from "../../../provider/resources/webhook/resource";
import { task as taskResource } from "../../../provider/resources/task/resource";
import { schedule } from "../../../provider/resources/schedule/resource";
import { rowsOf } from "../../../provider/resources/framework/defineResource";
import type { WebhookInputs } from "../../../provider/resources/webhook/schema";
import type { TaskInputs } from "../../../provider/resources/task/schema";
import type { ScheduleInputs } from "../../../provider/resources/schedule/schema";

const webhookRows = rowsOf<WebhookInputs>(webhook);
const taskRows = rowsOf<TaskInputs>(taskResource);
const scheduleRows = rowsOf<ScheduleInputs>(schedule);

let site: Site;
let receiver: Receiver & { cert: string };
let task: string;
beforeAll(async () => {
  site = await startSite();
  receiver = await Receiver.startSelfSigned();
  const hook = (
    await createRow(
      site.api,
      webhookRows,
      webhookInputsSchema.parse({ name: "sched", url: receiver.url, allowInsecure: true, retries: 0 }),
      once(),
    )
  ).key;
  task = (
    await createRow(site.api, taskRows, taskInputsSchema.parse({ name: "tick", webhook: hook, message: "${NAME} at ${TIMESTAMP}" }), once())
  ).key;
}, STARTUP_MS);
afterAll(async () => {
  await receiver.close();
  await site.close();
});

describe("a schedule runs the tasks it links, on time", () => {
  test("every minute (0.6 s at time scale 0.01): the task's message arrives at that pace; unlinking stops it", async () => {
    const declared = scheduleInputsSchema.parse({ name: "every-minute", repeatEvery: "minute", tasks: [task] });
    const schedule = (await createRow(site.api, scheduleRows, declared, once())).key;
    const linkedAt = Date.now();
    await setScheduleTasks(site.api, schedule, declared.tasks, 30_000);
    const [first, second] = await receiver.requests(2, 10_000);
    const elapsed = Date.now() - linkedAt;
    expect(first.body).toMatch(/^tick at \d+$/);
    expect(second.body).toMatch(/^tick at \d+$/);
    expect(elapsed).toBeLessThan(5_000); // two runs of a 0.6 s schedule, with room for a busy machine
    expect(second.at - first.at).toBeGreaterThanOrEqual(400); // a minute apart on the emulator's clock (0.6 s), not at once
    expect(await scheduleTasks(site.api, schedule)).toEqual([task]);
    await setScheduleTasks(site.api, schedule, [], 30_000);
    expect(await scheduleTasks(site.api, schedule)).toEqual([]);
    await new Promise((r) => setTimeout(r, 700)); // a delivery already under way may still land
    const settled = receiver.received.length;
    await new Promise((r) => setTimeout(r, 1500));
    expect(receiver.received.length).toBe(settled);
  }, 30_000);

  test("the schedule reads back as declared; setting the same tasks again sends nothing", async () => {
    const declared = scheduleInputsSchema.parse({
      name: "nightly",
      repeatEvery: "day",
      start: "2031-01-01",
      end: "2031-12-31",
      startTimeOfDay: "02:30",
      days: ["monday", "thursday"],
      tasks: [task],
    });
    const schedule = (await createRow(site.api, scheduleRows, declared, once())).key;
    await setScheduleTasks(site.api, schedule, declared.tasks, 30_000);
    expect((await readRow(site.api, scheduleRows, schedule, declared))?.inputs).toEqual({
      ...declared,
      tasks: undefined,
      adopt: undefined,
    });
    await site.resetRequests();
    await setScheduleTasks(site.api, schedule, declared.tasks, 30_000);
    const counts = await site.requests();
    expect(counts.entries.filter((e) => e.method !== "GET")).toEqual([]);
    expect(countOf(counts, "GET", "task_schedule_triggers")).toBe(1);
  });
});
