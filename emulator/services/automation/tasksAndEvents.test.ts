import type { EmulatorContext } from "../../engine/context";
import type { Row } from "../../model/types";
import { contextWith, del, eventually, get, post, put, refusal } from "../../requests/testSupport";
import { automationFeature } from "./index";
import { Receiver } from "./testReceiver";

let ctx: EmulatorContext;
let receiver: Receiver;
let hook: string;

beforeEach(async () => {
  ctx = contextWith([automationFeature()]);
  receiver = await Receiver.start();
  hook = String(post(ctx, "webhook_urls", { name: "receiver", url: receiver.url, retries: 0 }).$key);
});

afterEach(async () => {
  ctx.close();
  await receiver.close();
});

function createTask(settings: Record<string, unknown> = {}): string {
  return String(
    post(ctx, "tasks", { name: `task-${ctx.all("tasks").length + 1}`, owner: `webhook_urls/${hook}`, action: "send", ...settings }).$key,
  );
}

function onEvent(task: string, table: string, event: string, narrowing: Record<string, unknown> = {}): string {
  return String(post(ctx, "task_events", { task, table, event, ...narrowing }).$key);
}

function createVm(name: string): string {
  return String(post(ctx, "vms", { name }).$key);
}

function powerOn(vm: string): void {
  post(ctx, "vm_actions", { vm, action: "poweron" });
}

const deliveries = () => ctx.find("webhooks", () => true);

/** Waits until `count` deliveries have ended, then answers all deliveries. */
async function settledDeliveries(count: number): Promise<Row[]> {
  return eventually(() => {
    const done = deliveries().filter((d) => d.status === "sent" || d.status === "error");
    return done.length >= count && done.length === deliveries().length ? deliveries() : undefined;
  });
}

/** Lets pending timers and deliveries run, for rules that say nothing happens. */
async function quiet(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 50));
  await settledDeliveries(0);
}

describe("task settings", () => {
  it("defaults to an enabled, idle send task with the default message and a 40-hex id", () => {
    const task = get(ctx, "tasks", createTask(), "most");
    expect(task).toMatchObject({
      enabled: true,
      status: "idle",
      action: "send",
      action_display: "Send",
      table: "webhook_urls",
      owner: `webhook_urls/${hook}`,
      settings_args: { message: '{"message": "Webhook"}' },
      delete_after_run: false,
      last_run: 0,
      creator: "admin",
      events_count: 0,
    });
    expect(task.id).toMatch(/^[0-9a-f]{40}$/);
  });

  it("accepts the webhook as settings_args.webhook_url instead of owner", () => {
    const key = String(post(ctx, "tasks", { name: "via-args", settings_args: { webhook_url: Number(hook), message: "m" } }).$key);
    expect(get(ctx, "tasks", key, "owner").owner).toBe(`webhook_urls/${hook}`);
  });

  it("refuses a task without an object (400), on a type tasks do not serve (400) or with a missing one (404)", () => {
    expect(refusal(() => post(ctx, "tasks", { name: "none" })).message).toBe(
      "Validation error on field: 'owner' - 'is required (webhook_urls/<key>, vms/<key>, users/<key>)'",
    );
    expect(refusal(() => post(ctx, "tasks", { name: "vnet", owner: "vnets/1" })).status).toBe(400);
    expect(refusal(() => post(ctx, "tasks", { name: "vm", owner: "vms/1" })).status).toBe(404);
    expect(refusal(() => post(ctx, "tasks", { name: "gone", owner: "webhook_urls/999" })).status).toBe(404);
    expect(refusal(() => post(ctx, "tasks", { name: "x", owner: `webhook_urls/${hook}`, action: "delete" })).status).toBe(400);
  });

  it("toggles with PUT {enabled}", () => {
    const task = createTask();
    put(ctx, "tasks", task, { enabled: false });
    expect(get(ctx, "tasks", task, "enabled,settings_args")).toEqual({
      enabled: false,
      settings_args: { message: '{"message": "Webhook"}' },
    });
  });
});

describe("task execution (task_actions execute)", () => {
  it("delivers the task message, enabled or not, and answers the delivery log key", async () => {
    const task = createTask({ enabled: false, settings_args: { message: "run ${NAME}" }, name: "nightly" });
    const answer = post(ctx, "task_actions", { task, action: "execute" });
    expect(answer).toMatchObject({ task });
    const [log] = await settledDeliveries(1);
    expect(String(log.$key)).toBe(answer.$key);
    expect(log).toMatchObject({ task: Number(task), status: "sent" });
    expect(receiver.received[0].body).toBe("run nightly");
  });

  it("marks the task running, then idle with last_run set", async () => {
    const task = createTask();
    post(ctx, "task_actions", { task });
    expect(ctx.get("tasks", task)!.status).toBe("running");
    await eventually(() => (ctx.get("tasks", task)!.status === "idle" ? true : undefined));
    expect(ctx.get("tasks", task)!.last_run).toBeGreaterThan(0);
  });

  it("marks the task error when its delivery fails", async () => {
    receiver.plan.push(500);
    const task = createTask();
    post(ctx, "task_actions", { task });
    await eventually(() => (ctx.get("tasks", task)!.status === "error" ? true : undefined));
    expect(String(ctx.get("tasks", task)!.status_info)).toMatch(/^delivery \d+ failed: HTTP 500/);
  });
});

describe("events trigger tasks", () => {
  it("runs the task on every VM power-on with ${NAME} the VM's name", async () => {
    const task = createTask({ settings_args: { message: '{"vm": "${NAME}"}' } });
    onEvent(task, "vms", "poweron");
    powerOn(createVm("web-1"));
    powerOn(createVm("web-2"));
    await settledDeliveries(2);
    expect(receiver.received.map((r) => JSON.parse(r.body).vm).sort()).toEqual(["web-1", "web-2"]);
  });

  it("runs on VM creation, power-off and deletion", async () => {
    const task = createTask({ settings_args: { message: "${NAME}" } });
    for (const event of ["created", "poweroff", "deleted"]) onEvent(task, "vms", event);
    const vm = createVm("db-1");
    powerOn(vm);
    await eventually(() => (ctx.get("machine_status", ctx.get("vms", vm)!.machine)!.status === "running" ? true : undefined));
    post(ctx, "vm_actions", { vm, action: "poweroff" });
    await eventually(() => (ctx.get("machine_status", ctx.get("vms", vm)!.machine)!.status === "stopped" ? true : undefined));
    del(ctx, "vms", vm);
    await settledDeliveries(3);
    expect(receiver.received.map((r) => r.body)).toEqual(["db-1", "db-1", "db-1"]);
  });

  it("does not run a disabled task", async () => {
    onEvent(createTask({ enabled: false }), "vms", "created");
    createVm("quiet-1");
    await quiet();
    expect(deliveries()).toHaveLength(0);
  });

  it("applies an instance event only to that object", async () => {
    const chosen = createVm("chosen");
    const other = createVm("other");
    onEvent(createTask({ settings_args: { message: "${NAME}" } }), "vms", "poweron", { owner: `vms/${chosen}` });
    powerOn(other);
    powerOn(chosen);
    await settledDeliveries(1);
    await quiet();
    expect(receiver.received.map((r) => r.body)).toEqual(["chosen"]);
  });

  it("applies a tag event to every object carrying the tag", async () => {
    const tag = String(post(ctx, "tags", { name: "production" }).$key);
    const tagged = [createVm("prod-1"), createVm("prod-2")];
    const untagged = createVm("dev-1");
    for (const vm of tagged) post(ctx, "tag_members", { tag, member: `vms/${vm}` });
    onEvent(createTask({ settings_args: { message: "${NAME}" } }), "vms", "poweron", { tag });
    for (const vm of [...tagged, untagged]) powerOn(vm);
    await settledDeliveries(2);
    await quiet();
    expect(receiver.received.map((r) => r.body).sort()).toEqual(["prod-1", "prod-2"]);
  });

  it("applies table_event_filters as field equalities", async () => {
    onEvent(createTask({ settings_args: { message: "${NAME}" } }), "vms", "created", { table_event_filters: { description: "watch" } });
    post(ctx, "vms", { name: "plain" });
    post(ctx, "vms", { name: "watched", description: "watch" });
    await settledDeliveries(1);
    await quiet();
    expect(receiver.received.map((r) => r.body)).toEqual(["watched"]);
  });

  it("lets one task serve several events and one webhook several tasks", async () => {
    const first = createTask({ settings_args: { message: "first" } });
    const second = createTask({ settings_args: { message: "second" } });
    onEvent(first, "vms", "created");
    onEvent(first, "vnets", "created");
    onEvent(second, "vms", "created");
    createVm("multi");
    post(ctx, "vnets", { name: "net-1", network: "10.9.0.0/24" });
    await settledDeliveries(3);
    expect(receiver.received.map((r) => r.body).sort()).toEqual(["first", "first", "second"]);
  });
});

describe("one-time tasks", () => {
  it("runs once and is deleted with its events after the run", async () => {
    const task = createTask({ delete_after_run: true });
    const event = onEvent(task, "vms", "created");
    createVm("once-1");
    createVm("once-2");
    await settledDeliveries(1);
    await eventually(() => (ctx.get("tasks", task) === undefined ? true : undefined));
    expect(ctx.get("task_events", event)).toBeUndefined();
    await quiet();
    expect(deliveries()).toHaveLength(1);
  });

  it("refuses a second execute while its single run is in progress (409)", () => {
    receiver.plan.push("stall");
    const task = createTask({ delete_after_run: true });
    post(ctx, "task_actions", { task });
    expect(refusal(() => post(ctx, "task_actions", { task })).status).toBe(409);
  });
});

describe("task event settings", () => {
  it.each([
    [{ table: "nosuch", event: "created" }, "table"],
    [{ table: "webhooks", event: "created" }, "table"],
    [{ table: "vms", event: "exploded" }, "event"],
    [{ table: "alarms", event: "raised", owner: "vms/1" }, "owner"],
    [{ table: "vms", event: "poweron", owner: "vnets/1" }, "owner"],
    [{ table: "vms", event: "poweron", table_event_filters: [1] }, "table_event_filters"],
  ])("refuses %j with 400 on %s", (settings, field) => {
    const error = refusal(() => post(ctx, "task_events", { task: createTask(), ...settings }));
    expect(error.status).toBe(400);
    expect(error.message).toContain(`'${field}'`);
  });

  it("refuses an instance and a tag together", () => {
    const vm = createVm("both");
    const tag = String(post(ctx, "tags", { name: "t" }).$key);
    expect(refusal(() => onEvent(createTask(), "vms", "poweron", { owner: `vms/${vm}`, tag })).message).toContain("not both");
  });

  it("answers 404 for a missing task, instance or tag", () => {
    expect(refusal(() => onEvent("999", "vms", "created")).status).toBe(404);
    expect(refusal(() => onEvent(createTask(), "vms", "created", { owner: "vms/999" })).status).toBe(404);
    expect(refusal(() => onEvent(createTask(), "vms", "created", { tag: 999 })).status).toBe(404);
  });

  it("accepts generic alarm events and counts a task's events", () => {
    const task = createTask();
    onEvent(task, "alarms", "lowered");
    onEvent(task, "vms", "poweron");
    expect(get(ctx, "tasks", task, "events_count,events")).toEqual({ events_count: 2, events: expect.any(Array) });
  });
});

describe("the event catalog (task_event_types)", () => {
  it("serves every type a task event accepts, with its events, and exactly those", () => {
    const rows = ctx.all("task_event_types");
    expect(rows.find((r) => r.$key === "vms")).toMatchObject({ events: expect.arrayContaining(["poweron", "poweroff"]), generic: false });
    expect(rows.find((r) => r.$key === "alarms")).toMatchObject({ events: ["raised", "lowered", "resolved"], generic: true });
    for (const row of rows) {
      for (const event of row.events as string[]) expect(() => onEvent(createTask(), String(row.$key), event)).not.toThrow();
    }
    expect(rows.map((r) => r.$key)).not.toContain("webhooks");
    expect(rows.map((r) => r.$key)).not.toContain("task_event_types");
  });

  it("is read-only", () => {
    expect(refusal(() => post(ctx, "task_event_types", { $key: "x", events: [] })).status).toBe(405);
  });
});

describe("task schedules", () => {
  it("stores schedules linked to tasks and removes the links with the task", () => {
    const task = createTask();
    const schedule = String(post(ctx, "task_schedules", { name: "hourly", repeat_every: "hour" }).$key);
    expect(get(ctx, "task_schedules", schedule)).toMatchObject({ repeat_every: "hour", repeat_iteration: 1, all_day: true, monday: true });
    post(ctx, "task_schedule_triggers", { task, schedule });
    expect(get(ctx, "tasks", task, "triggers_count").triggers_count).toBe(1);
    expect(refusal(() => post(ctx, "task_schedule_triggers", { task, schedule })).status).toBe(409);
    del(ctx, "tasks", task);
    expect(ctx.all("task_schedule_triggers")).toHaveLength(0);
  });

  it("refuses an end before the start", () => {
    expect(refusal(() => post(ctx, "task_schedules", { name: "bad", start_date: 2000, end_date: 1000 })).message).toContain("'end_date'");
  });
});
