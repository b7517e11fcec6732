// Issue 20 under the real engine: a webhook really fires (a vnet, a running VM, a Webhook to a local
// HTTPS receiver with a self-signed certificate, a Task, an EventTrigger on the VM powering off), its
// message changes in place, destroying it stops every delivery; and a Schedule runs its Task on time
// (the emulator's manual clock, moved through its /_emulator admin scope).
import * as fs from "node:fs";
import * as path from "node:path";
import got from "got";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { Receiver, type ReceivedRequest } from "../../emulator/services/automation/testReceiver";
import { startEmulator } from "../../emulator/index";
import { collect, startE2e, type E2eContext } from "./harness";

/** The webhook's credential: it reaches the receiver, never the state file or the engine's output. */
const TOKEN = "e2e-hook-t0ken-5b2e";
const desired = { message: '{"vm": "${NAME}", "at": ${TIMESTAMP}}' };
let receiver: Receiver & { cert: string };

const program: PulumiFn = async () => {
  const vp = require("vplatform");
  const net = new vp.Vnet("net", { name: "hooks-net", network: "10.41.0.0/24" });
  const vm = new vp.VirtualMachine("watched", { name: "hooks-vm", powerState: "running" });
  new vp.Nic("watched-eth0", { machine: vm.machineKey, name: "eth0", vnet: net.id });
  const hook = new vp.Webhook("receiver", {
    name: "hooks-receiver",
    url: receiver.url,
    allowInsecure: true,
    retries: 0,
    authorization: { type: "bearer", token: TOKEN },
    headers: [
      { name: "X-Lab", value: "hooks" },
      { name: "Content-Type", value: "application/json" },
    ],
  });
  const task = new vp.Task("vm-stopped", { name: "hooks-vm-stopped", webhook: hook.id, message: desired.message });
  const trigger = new vp.EventTrigger("on-poweroff", { task: task.id, type: "vms", event: "poweroff", object: vm.id });
  return { vmKey: vm.id, machineKey: vm.machineKey, webhookKey: hook.id, taskKey: task.id, triggerKey: trigger.id };
};

let ctx: E2eContext;
let keys: Record<string, string>;

beforeAll(async () => {
  receiver = await Receiver.startSelfSigned();
  ctx = await startE2e("webhooks", program);
}, 120_000);
afterAll(async () => {
  await ctx?.dispose();
  await receiver?.close();
});

const onlySame = (summary: Record<string, number | undefined>) => Object.keys(summary).filter((k) => k !== "same" && summary[k]);
/** Lets a delivery that should not happen have its chance. */
const quiet = () => new Promise((resolve) => setTimeout(resolve, 500));
const sentHeaders = (r: ReceivedRequest) =>
  r.headers.map(([name]) => name).filter((n) => !["host", "content-length", "connection"].includes(n.toLowerCase()));

async function machineStatus(): Promise<string> {
  return (await ctx.api("GET", `/v4/vms/${keys.vmKey}?fields=machine%23status%23status%20as%20status`)).body.status;
}
async function waitForStatus(status: string): Promise<void> {
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
    if ((await machineStatus()) === status) return;
  }
  throw new Error(`VM 'hooks-vm' did not reach ${status} in 30 s`);
}
/** Powers the VM off through the API (outside Pulumi), as an operator or a failure would. */
async function powerOff(): Promise<void> {
  expect((await ctx.api("POST", "/v4/vm_actions", { vm: keys.vmKey, action: "poweroff" })).status).toBeLessThan(300);
  await waitForStatus("stopped");
}
async function powerOn(): Promise<void> {
  expect((await ctx.api("POST", "/v4/vm_actions", { vm: keys.vmKey, action: "poweron" })).status).toBeLessThan(300);
  await waitForStatus("running");
}

describe("up makes the vnet, the running VM, the webhook, the task and the trigger, and stays converged", () => {
  test("every row exists as declared", async () => {
    const up = await ctx.stack.up(collect(ctx));
    expect(up.summary.result).toBe("succeeded");
    keys = Object.fromEntries(Object.entries(up.outputs).map(([k, v]) => [k, String(v.value)]));
    expect(await machineStatus()).toBe("running");
    const hook = (await ctx.api("GET", `/v4/webhook_urls/${keys.webhookKey}?fields=name,url,headers,authorization_type`)).body;
    expect(hook).toMatchObject({ name: "hooks-receiver", url: receiver.url, authorization_type: "bearer" });
    const trigger = (await ctx.api("GET", `/v4/task_events/${keys.triggerKey}?fields=task,table,event,owner`)).body;
    expect(trigger).toMatchObject({ table: "vms", event: "poweroff", owner: `vms/${keys.vmKey}` });
  }, 300_000);

  test("a preview after up shows no change and sends no mutating request; a refresh finds no drift", async () => {
    await ctx.resetRequestCounts();
    const preview = await ctx.stack.preview(collect(ctx));
    expect(onlySame(preview.changeSummary)).toEqual([]);
    expect((await ctx.requestCounts()).entries.filter((e) => e.method !== "GET")).toEqual([]);
    const refresh = await ctx.stack.refresh(collect(ctx));
    expect(onlySame(refresh.summary.resourceChanges ?? {})).toEqual([]);
  }, 300_000);
});

describe("powering the VM off through the API sends exactly one POST: the expanded message, the headers in order, the authorization", () => {
  test("one request, as declared", async () => {
    receiver.received.length = 0;
    const before = Math.floor(Date.now() / 1000);
    await powerOff();
    const [request] = await receiver.requests(1);
    await quiet();
    expect(receiver.received).toHaveLength(1);
    expect(request.method).toBe("POST");
    const body = JSON.parse(request.body);
    expect(body.vm).toBe("hooks-vm");
    expect(body.at).toBeGreaterThanOrEqual(before);
    expect(body.at).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    expect(sentHeaders(request)).toEqual(["X-Lab", "Content-Type", "Authorization"]);
    expect(receiver.header(request, "X-Lab")).toBe("hooks");
    expect(receiver.header(request, "Authorization")).toBe(`Bearer ${TOKEN}`);
    await powerOn();
  }, 120_000);
});

describe("changing the message updates the task in place, and the preview says so", () => {
  test("preview: one update (the task's message), nothing sent; up keeps the task's key; the next power-off sends the new message", async () => {
    desired.message = "stopped: ${NAME}";
    await ctx.resetRequestCounts();
    const preview = await ctx.stack.preview(collect(ctx));
    expect(preview.changeSummary).toMatchObject({ update: 1 });
    expect(onlySame(preview.changeSummary)).toEqual(["update"]);
    expect(preview.stdout).toMatch(/~\s+pulumi-nodejs:dynamic\/vplatform:Task\s+vm-stopped\s+update\s+\[diff: ~message\]/);
    expect((await ctx.requestCounts()).entries.filter((e) => e.method !== "GET")).toEqual([]);

    const up = await ctx.stack.up(collect(ctx));
    expect(up.summary.resourceChanges).toMatchObject({ update: 1 });
    expect(String(up.outputs.taskKey.value)).toBe(keys.taskKey);
    receiver.received.length = 0;
    await powerOff();
    expect((await receiver.requests(1))[0].body).toBe("stopped: hooks-vm");
    await quiet();
    expect(receiver.received).toHaveLength(1);
    await powerOn();
  }, 300_000);
});

describe("the webhook's credential is secret: in neither the state file nor the engine's output", () => {
  test("state as stored and every line printed", () => {
    const stateFiles = (dir: string): string[] =>
      fs
        .readdirSync(dir, { withFileTypes: true })
        .flatMap((e) => (e.isDirectory() ? stateFiles(path.join(dir, e.name)) : [path.join(dir, e.name)]));
    const state = stateFiles(ctx.stateDir)
      .filter((f) => f.endsWith(".json"))
      .map((f) => fs.readFileSync(f, "utf8"))
      .join("\n");
    expect(state).toContain("vplatform:Webhook");
    expect(state).not.toContain(TOKEN);
    expect(ctx.output.join("")).not.toContain(TOKEN);
  });
});

describe("destroying the webhook removes it with its task and trigger, and a later power-off delivers nothing; destroy removes every row", () => {
  test("the automation rows go (the VM stays), a power-off sends nothing; then the whole stack goes", async () => {
    const { deployment } = await ctx.stack.exportStack();
    const webhookUrn = deployment.resources.find((r: { urn: string }) => r.urn.endsWith("::receiver")).urn;
    await ctx.stack.destroy({ ...collect(ctx), target: [webhookUrn], targetDependents: true });
    for (const [table, key] of [
      ["webhook_urls", keys.webhookKey],
      ["tasks", keys.taskKey],
      ["task_events", keys.triggerKey],
    ]) {
      expect((await ctx.api("GET", `/v4/${table}/${key}`)).status).toBe(404);
    }
    receiver.received.length = 0;
    await powerOff();
    await quiet();
    expect(receiver.received).toHaveLength(0);

    const destroy = await ctx.stack.destroy(collect(ctx));
    expect(destroy.summary.result).toBe("succeeded");
    for (const table of ["webhook_urls", "tasks", "vms", "vnets"]) {
      const rows = (await ctx.api("GET", `/v4/${table}?fields=name&filter=name%20ct%20'hooks'`)).body;
      expect([table, rows]).toEqual([table, []]);
    }
  }, 300_000);
});

// ---- schedules: a second emulator, on the manual clock --------------------------------------

let timed: E2eContext;
let emulatorOfSchedules: Awaited<ReturnType<typeof startEmulator>>;
const scheduleProgram: PulumiFn = async () => {
  const vp = require("vplatform");
  const hook = new vp.Webhook("receiver", { name: "ticks", url: receiver.url, allowInsecure: true, retries: 0 });
  const task = new vp.Task("tick", { name: "tick", webhook: hook.id, message: "${NAME} at ${TIMESTAMP}" });
  const schedule = new vp.Schedule("hourly", { name: "hourly", repeatEvery: "hour", tasks: [task.id] });
  return { scheduleKey: schedule.id, taskKey: task.id };
};

/** The emulator's administrator scope (/_emulator): here, its manual clock. */
async function clock(method: "GET" | "POST", body?: object): Promise<{ dueInMs: number[]; pending: number }> {
  const auth = Buffer.from(`${emulatorOfSchedules.adminUser}:${emulatorOfSchedules.adminPassword}`).toString("base64");
  return got(`${emulatorOfSchedules.url}/_emulator/clock${method === "POST" ? "/advance" : ""}`, {
    method,
    json: body,
    headers: { authorization: `Basic ${auth}` },
    https: { certificateAuthority: emulatorOfSchedules.caCert },
  }).json();
}

describe("a Schedule runs its Task on time (the emulator's manual clock)", () => {
  beforeAll(async () => {
    emulatorOfSchedules = await startEmulator({ port: 0, timeScale: 0.01, quiet: true, clock: "manual" });
    timed = await startE2e("schedules", scheduleProgram, emulatorOfSchedules);
  }, 120_000);
  afterAll(async () => timed?.dispose());

  test("the preview shows the default header; nothing runs before the hour, then one message at the hour and one an hour later", async () => {
    // The webhook declares no headers: the platform's default one is declared for it, and the preview shows it.
    const first = await timed.stack.preview({ ...collect(timed), diff: true });
    expect(first.stdout).toMatch(/headers\s*:\s*\[\s*\[0\]: \{\s*name\s*: "Content-Type"\s*value\s*: "application\/json"/);
    const up = await timed.stack.up(collect(timed));
    expect(up.summary.result).toBe("succeeded");
    const links = (await timed.api("GET", `/v4/task_schedule_triggers?filter=schedule%20eq%20${up.outputs.scheduleKey.value}&fields=task`))
      .body;
    expect(links.map((l: { task: unknown }) => String(l.task))).toEqual([String(up.outputs.taskKey.value)]);
    receiver.received.length = 0;
    const { dueInMs } = await clock("GET");
    expect(dueInMs).toHaveLength(1); // the schedule's next run, within the hour
    expect(dueInMs[0]).toBeLessThanOrEqual(3_600_000);

    const due = Math.ceil(dueInMs[0]);
    await clock("POST", { ms: Math.max(0, due - 1_000) });
    await quiet();
    expect(receiver.received).toHaveLength(0);
    await clock("POST", { ms: 1_000 });
    expect((await receiver.requests(1))[0].body).toMatch(/^tick at \d+$/);
    await clock("POST", { ms: 3_600_000 });
    await receiver.requests(2);
    await quiet();
    expect(receiver.received).toHaveLength(2);

    const preview = await timed.stack.preview(collect(timed));
    expect(onlySame(preview.changeSummary)).toEqual([]);
    await timed.stack.destroy(collect(timed));
    expect((await timed.api("GET", "/v4/task_schedules?fields=name")).body).toEqual([]);
  }, 300_000);
});

// ---- the same in a YAML environment: references by name ---------------------------------------

let yamlCtx: E2eContext;
const environmentYaml = () =>
  [
    "vms:",
    "  - { name: yaml-hooked, powerState: running }",
    "webhooks:",
    `  - { name: yaml-receiver, url: "${receiver.url}", allowInsecure: true, retries: 0, authorization: { type: apiKey, key: raw-k3y } }`,
    "tasks:",
    '  - { name: yaml-stopped, webhook: yaml-receiver, message: "${NAME} stopped" }',
    "eventTriggers:",
    "  - { task: yaml-stopped, type: vms, event: poweroff, object: yaml-hooked }",
    "schedules:",
    "  - { name: yaml-yearly, repeatEvery: year, start: '2031-01-01', tasks: [yaml-stopped] }",
    "",
  ].join("\n");
const environmentProgram: PulumiFn = async () => {
  const { buildEnvironment, loadEnvironment } = require("vplatform/env");
  buildEnvironment(loadEnvironment("hooks.yaml", environmentYaml()));
};

describe("a YAML environment declares webhooks, tasks, event triggers and schedules by name", () => {
  beforeAll(async () => {
    yamlCtx = await startE2e("hooks-yaml", environmentProgram);
  }, 120_000);
  afterAll(async () => yamlCtx?.dispose());

  test("up resolves the names; a power-off of the named VM sends the task's message; a second preview is empty; destroy leaves no row", async () => {
    const up = await yamlCtx.stack.up(collect(yamlCtx));
    expect(up.summary.resourceChanges).toMatchObject({ create: 7 }); // the stack, VM, its power, webhook, task, trigger, schedule
    const [vm] = (await yamlCtx.api("GET", "/v4/vms?filter=name%20eq%20'yaml-hooked'&fields=%24key")).body;
    const [schedule] = (await yamlCtx.api("GET", "/v4/task_schedules?filter=name%20eq%20'yaml-yearly'&fields=%24key")).body;
    const [task] = (await yamlCtx.api("GET", "/v4/tasks?filter=name%20eq%20'yaml-stopped'&fields=%24key")).body;
    const links = (await yamlCtx.api("GET", `/v4/task_schedule_triggers?filter=schedule%20eq%20${schedule.$key}&fields=task`)).body;
    expect(links.map((l: { task: unknown }) => String(l.task))).toEqual([String(task.$key)]);

    receiver.received.length = 0;
    expect((await yamlCtx.api("POST", "/v4/vm_actions", { vm: vm.$key, action: "poweroff" })).status).toBeLessThan(300);
    const [request] = await receiver.requests(1, 30_000);
    expect(request.body).toBe("yaml-hooked stopped");
    expect(receiver.header(request, "Authorization")).toBe("raw-k3y");
    await quiet();
    expect(receiver.received).toHaveLength(1);
    await yamlCtx.api("POST", "/v4/vm_actions", { vm: vm.$key, action: "poweron" });

    const preview = await yamlCtx.stack.preview(collect(yamlCtx));
    expect(onlySame(preview.changeSummary)).toEqual([]);
    await yamlCtx.stack.destroy(collect(yamlCtx));
    for (const table of ["webhook_urls", "tasks", "task_schedules", "vms"]) {
      expect([table, (await yamlCtx.api("GET", `/v4/${table}?fields=name&filter=name%20ct%20'yaml'`)).body]).toEqual([table, []]);
    }
  }, 300_000);
});
