// Webhooks, tasks and event triggers made by the provider's row operations, against the
// emulator: a VM power-off makes the platform send the task's message (variables expanded)
// with the declared headers in order and the declared authorization, to a local HTTPS
// receiver with a self-signed certificate. Changes apply in place; deletion stops it all.
import { Receiver, type ReceivedRequest } from "../../../emulator/services/automation/testReceiver";
import { isRunning, isStopped, waitForMachineStatus } from "../../../provider/reconcile/machineStatus";
import { createRow, deleteRow, readRow, updateRow } from "../../../provider/reconcile/automation/rows";
import { eventTriggerInputsSchema } from "../../../provider/resources/eventTrigger/schema";
import { taskInputsSchema } from "../../../provider/resources/task/schema";
import { webhookInputsSchema, type WebhookInputs } from "../../../provider/resources/webhook/schema";
import { countOf, once, type Site, startSite, STARTUP_MS } from "./site";
import { webhook } from "../../../provider/resources/webhook/resource";
import { task } from "../../../provider/resources/task/resource";
import { eventTrigger } from "../../../provider/resources/eventTrigger/resource";
import { rowsOf } from "../../../provider/resources/framework/defineResource";
import type { TaskInputs } from "../../../provider/resources/task/schema";
import type { EventTriggerInputs } from "../../../provider/resources/eventTrigger/schema";

const webhookRows = rowsOf<WebhookInputs>(webhook);
const taskRows = rowsOf<TaskInputs>(task);
const eventTriggerRows = rowsOf<EventTriggerInputs>(eventTrigger);

let site: Site;
let receiver: Receiver & { cert: string };
beforeAll(async () => {
  site = await startSite();
  receiver = await Receiver.startSelfSigned();
}, STARTUP_MS);
afterAll(async () => {
  await receiver.close();
  await site.close();
});
beforeEach(() => void (receiver.received.length = 0));

let vmNo = 0;
async function runningVm(): Promise<{ vm: string; name: string; machine: string }> {
  const name = `hooked-${++vmNo}`;
  const created = await site.api.create("vms", { name });
  const machine = String(created.response?.machine);
  await site.api.action("vm_actions", { vm: created.$key, action: "poweron" });
  await waitForMachineStatus(site.api, machine, isRunning, { kind: "power-on", timeoutSec: 30, label: `${name} to run` });
  return { vm: created.$key, name, machine };
}

async function powerCycleOff(vm: { vm: string; machine: string; name: string }): Promise<void> {
  await site.api.action("vm_actions", { vm: vm.vm, action: "poweroff" });
  await waitForMachineStatus(site.api, vm.machine, isStopped, { kind: "shutdown", timeoutSec: 30, label: `${vm.name} to stop` });
}

/** Lets deliveries that should not happen have their chance. */
const quiet = () => new Promise((resolve) => setTimeout(resolve, 300));

let setNo = 0;
/** A webhook to the receiver, a task sending `message` through it, and a trigger on `vm` powering off. */
async function alertOn(vm: string, authorization: WebhookInputs["authorization"], message = '{"vm": "${NAME}", "at": ${TIMESTAMP}}') {
  const n = ++setNo;
  const webhook = webhookInputsSchema.parse({
    name: `receiver-${n}`,
    url: receiver.url,
    allowInsecure: true,
    retries: 0,
    authorization,
    headers: [
      { name: "X-First", value: "1" },
      { name: "Content-Type", value: "application/json" },
      { name: "X-Last", value: "z" },
    ],
  });
  const hook = (await createRow(site.api, webhookRows, webhook, once())).key;
  const task = taskInputsSchema.parse({ name: `vm-stopped-${n}`, webhook: hook, message });
  const taskKey = (await createRow(site.api, taskRows, task, once())).key;
  const trigger = eventTriggerInputsSchema.parse({ task: taskKey, type: "vms", event: "poweroff", object: vm });
  const triggerKey = (await createRow(site.api, eventTriggerRows, trigger, once())).key;
  return {
    webhook: { key: hook, declared: webhook },
    task: { key: taskKey, declared: task },
    trigger: { key: triggerKey, declared: trigger },
  };
}

const names = (r: ReceivedRequest) => r.headers.map(([name]) => name);
const header = (r: ReceivedRequest, name: string) => receiver.header(r, name);

describe("a VM power-off sends the task's message through the webhook, with the declared headers and authorization", () => {
  test.each([
    [{ type: "bearer", token: "t0ken-1" }, "Bearer t0ken-1"],
    [{ type: "apiKey", key: "raw-key-2" }, "raw-key-2"],
    [{ type: "basic", username: "hook", password: "pw:3" }, `Basic ${Buffer.from("hook:pw:3").toString("base64")}`],
    [{ type: "none" }, undefined],
  ] as const)("authorization %j", async (authorization, expected) => {
    const vm = await runningVm();
    await alertOn(vm.vm, authorization);
    const before = Math.floor(Date.now() / 1000);
    await powerCycleOff(vm);
    const [request] = await receiver.requests(1);
    await quiet();
    expect(receiver.received).toHaveLength(1);
    expect(request.method).toBe("POST");
    const body = JSON.parse(request.body);
    expect(body.vm).toBe(vm.name);
    expect(body.at).toBeGreaterThanOrEqual(before);
    expect(body.at).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    const sent = names(request).filter((n) => !["host", "content-length", "connection"].includes(n.toLowerCase()));
    expect(sent).toEqual(["X-First", "Content-Type", "X-Last", ...(expected ? ["Authorization"] : [])]);
    expect(header(request, "Authorization")).toBe(expected);
  });
});

describe("every row reads back as declared, and changes apply in place", () => {
  test("webhook, task and trigger read back as declared; a new message is sent on the next power-off", async () => {
    const vm = await runningVm();
    const rows = await alertOn(vm.vm, { type: "bearer", token: "t" }, "first ${NAME}");
    expect((await readRow(site.api, webhookRows, rows.webhook.key, rows.webhook.declared))?.inputs).toEqual({
      ...rows.webhook.declared,
      adopt: undefined,
    });
    expect((await readRow(site.api, taskRows, rows.task.key, rows.task.declared))?.inputs).toEqual({
      ...rows.task.declared,
      adopt: undefined,
    });
    expect((await readRow(site.api, eventTriggerRows, rows.trigger.key, rows.trigger.declared))?.inputs).toEqual(rows.trigger.declared);
    await updateRow(site.api, taskRows, rows.task.key, { ...rows.task.declared, message: "changed ${NAME}" }, ["message"]);
    expect((await readRow(site.api, taskRows, rows.task.key, rows.task.declared))?.inputs.message).toBe("changed ${NAME}");
    expect((await readRow(site.api, taskRows, rows.task.key))?.inputs.webhook).toBe(rows.webhook.key); // the owner survived the PUT
    await powerCycleOff(vm);
    expect((await receiver.requests(1))[0].body).toBe(`changed ${vm.name}`);
  });

  test("a trigger's object changes in place, and removing it makes the trigger apply to any VM", async () => {
    const [first, second] = [await runningVm(), await runningVm()];
    const rows = await alertOn(first.vm, { type: "none" }, "${NAME}");
    const moved = { ...rows.trigger.declared, object: second.vm };
    await updateRow(site.api, eventTriggerRows, rows.trigger.key, moved, ["object"]);
    expect((await readRow(site.api, eventTriggerRows, rows.trigger.key, moved))?.inputs).toEqual(moved);
    await powerCycleOff(first);
    await powerCycleOff(second);
    expect((await receiver.requests(1)).map((r) => r.body)).toEqual([second.name]);
    const anyVm = { ...moved, object: undefined };
    await updateRow(site.api, eventTriggerRows, rows.trigger.key, anyVm, ["object"]);
    expect((await readRow(site.api, eventTriggerRows, rows.trigger.key))?.inputs.object).toBeUndefined();
    const third = await runningVm();
    await powerCycleOff(third);
    expect((await receiver.requests(2)).map((r) => r.body)).toEqual([second.name, third.name]);
    await deleteRow(site.api, eventTriggerRows.table, rows.trigger.key); // it would fire on every later power-off
  });

  test("a header order changed on the platform reads as the platform's order (drift shows)", async () => {
    const vm = await runningVm();
    const rows = await alertOn(vm.vm, { type: "none" });
    await site.call("PUT", `/api/v4/webhook_urls/${rows.webhook.key}`, { headers: "X-Last: z\nX-First: 1" });
    const read = await readRow(site.api, webhookRows, rows.webhook.key, rows.webhook.declared);
    expect(read?.inputs.headers).toEqual([
      { name: "X-Last", value: "z" },
      { name: "X-First", value: "1" },
    ]);
  });
});

describe("deleting the trigger, the task and the webhook removes every row, and a later power-off sends nothing", () => {
  test("rows gone, nothing delivered", async () => {
    const vm = await runningVm();
    const rows = await alertOn(vm.vm, { type: "none" });
    await deleteRow(site.api, eventTriggerRows.table, rows.trigger.key);
    await deleteRow(site.api, taskRows.table, rows.task.key);
    await deleteRow(site.api, webhookRows.table, rows.webhook.key);
    for (const [m, key] of [
      [webhookRows, rows.webhook.key],
      [taskRows, rows.task.key],
      [eventTriggerRows, rows.trigger.key],
    ] as const) {
      expect(await readRow(site.api, m as typeof webhookRows, key)).toBeUndefined();
    }
    await powerCycleOff(vm);
    await quiet();
    expect(receiver.received).toHaveLength(0);
  });
});

describe("refresh reads each table once per run", () => {
  test("three alert sets read together cost one GET of each table", async () => {
    const sets = await Promise.all([1, 2, 3].map(async () => alertOn((await runningVm()).vm, { type: "none" })));
    await site.resetRequests();
    await Promise.all(
      sets.flatMap((s) => [
        readRow(site.api, webhookRows, s.webhook.key, s.webhook.declared),
        readRow(site.api, taskRows, s.task.key, s.task.declared),
        readRow(site.api, eventTriggerRows, s.trigger.key, s.trigger.declared),
      ]),
    );
    const counts = await site.requests();
    expect([countOf(counts, "GET", "webhook_urls"), countOf(counts, "GET", "tasks"), countOf(counts, "GET", "task_events")]).toEqual([
      1, 1, 1,
    ]);
  });
});
