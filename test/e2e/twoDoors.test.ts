// One behaviour suite, run through both doors onto the same provider code: the
// dynamic resources (the `vplatform` SDK) and the resource plugin (schema.json's
// types, as a generated SDK declares them). Same program, same assertions.
import type { PulumiFn } from "@pulumi/pulumi/automation";
import type * as pulumi from "@pulumi/pulumi";
import { collect, startE2e, statusWithKey, storedState, type E2eContext } from "./harness";
import { resource } from "./pluginResources";

const GiB = 1024 ** 3;
type Declare = (
  type: "VirtualMachine" | "Drive" | "Webhook" | "Task" | "EventTrigger" | "Schedule" | "User" | "ApiKey",
  name: string,
  args: Record<string, unknown>,
) => pulumi.CustomResource & Record<string, any>;

const doors: [string, Declare][] = [
  ["the dynamic resources", (type, name, args) => new (require("vplatform")[type])(name, args)],
  ["the resource plugin", (type, name, args) => resource(type, name, args)],
];

describe.each(doors)("through %s", (door, declare) => {
  let ctx: E2eContext;
  const desired = { ram: 2048, disksize: 10 * GiB, drive: true };
  const program: PulumiFn = async () => {
    const vm = declare("VirtualMachine", "web", { name: "doors-web", cpuCores: 2, ram: desired.ram, powerState: "running" });
    if (desired.drive)
      declare("Drive", "web-os", {
        machine: vm.machineKey,
        name: "os",
        media: "disk",
        interface: "virtio-scsi",
        disksize: desired.disksize,
      });
    return { vmKey: vm.id, machineKey: vm.machineKey };
  };
  let vmKey = "";
  let machineKey = "";
  const changed = (summary: Record<string, number | undefined>) => Object.keys(summary).filter((k) => k !== "same" && summary[k]);
  const vm = async () => (await ctx.api("GET", `/v4/vms/${vmKey}?fields=name,ram,machine%23status%23status%20as%20status`)).body;
  const drives = async () => (await ctx.api("GET", `/v4/machine_drives?filter=machine%20eq%20${machineKey}&fields=name,disksize`)).body;

  beforeAll(async () => {
    ctx = await startE2e(`doors-${door.split(" ").pop()}`, program);
  }, 120_000);
  afterAll(async () => ctx?.dispose());

  test("create: a running VM and its drive", async () => {
    const up = await ctx.stack.up(collect(ctx));
    ({ vmKey, machineKey } = { vmKey: up.outputs.vmKey.value, machineKey: up.outputs.machineKey.value });
    expect(await vm()).toMatchObject({ name: "doors-web", ram: 2048, status: "running" });
    expect(await drives()).toEqual([expect.objectContaining({ name: "os", disksize: 10 * GiB })]);
  }, 300_000);

  test("read and diff: preview and refresh report no changes", async () => {
    expect(changed((await ctx.stack.preview(collect(ctx))).changeSummary)).toEqual([]);
    expect(changed((await ctx.stack.refresh(collect(ctx))).summary.resourceChanges ?? {})).toEqual([]);
  }, 300_000);

  test("read: drift made outside Pulumi is detected by refresh", async () => {
    await ctx.api("PUT", `/v4/vms/${vmKey}`, { ram: 3072 });
    const refresh = await ctx.stack.refresh(collect(ctx));
    expect(refresh.summary.resourceChanges?.update).toBe(1);
  }, 300_000);

  test("update: more RAM (a power cycle of the running VM) and a bigger drive, in place", async () => {
    Object.assign(desired, { ram: 4096, disksize: 20 * GiB });
    const up = await ctx.stack.up(collect(ctx));
    expect(changed(up.summary.resourceChanges ?? {})).toEqual(["update"]);
    expect(await vm()).toMatchObject({ ram: 4096, status: "running" });
    expect(await drives()).toEqual([expect.objectContaining({ disksize: 20 * GiB })]);
  }, 300_000);

  test("delete: a drive no longer declared is removed, then destroy removes the VM", async () => {
    desired.drive = false;
    await ctx.stack.up(collect(ctx));
    expect(await drives()).toEqual([]);
    await ctx.stack.destroy(collect(ctx));
    expect((await ctx.api("GET", `/v4/vms/${vmKey}?fields=name`)).status).toBe(404);
  }, 300_000);
});

describe.each(doors)("webhooks, tasks, event triggers and schedules through %s", (door, declare) => {
  let ctx: E2eContext;
  const desired = { message: "${NAME} raised", schedule: true };
  const program: PulumiFn = async () => {
    const hook = declare("Webhook", "hook", {
      name: "doors-hook",
      url: "https://127.0.0.1:9/",
      authorization: { type: "basic", username: "doors", password: "pa55-doors" },
    });
    const task = declare("Task", "task", { name: "doors-task", webhook: hook.id, message: desired.message });
    const trigger = declare("EventTrigger", "on-alarm", { task: task.id, type: "alarms", event: "raised" });
    if (desired.schedule) declare("Schedule", "weekly", { name: "doors-weekly", repeatEvery: "week", days: ["monday"], tasks: [task.id] });
    return { hookKey: hook.id, taskKey: task.id, triggerKey: trigger.id };
  };
  let keys: Record<string, string> = {};
  const changed = (summary: Record<string, number | undefined>) => Object.keys(summary).filter((k) => k !== "same" && summary[k]);
  const task = async () => (await ctx.api("GET", `/v4/tasks/${keys.taskKey}?fields=name,owner,settings_args`)).body;
  const schedules = async () => (await ctx.api("GET", "/v4/task_schedules?fields=name,monday,tuesday")).body;

  beforeAll(async () => {
    ctx = await startE2e(`doors-hooks-${door.split(" ").pop()}`, program);
  }, 120_000);
  afterAll(async () => ctx?.dispose());

  test("create: the webhook, its task, a trigger on an alarm and a weekly schedule running the task", async () => {
    const up = await ctx.stack.up(collect(ctx));
    keys = Object.fromEntries(Object.entries(up.outputs).map(([k, v]) => [k, String(v.value)]));
    expect(await task()).toMatchObject({ name: "doors-task", owner: `webhook_urls/${keys.hookKey}` });
    expect(await schedules()).toEqual([expect.objectContaining({ name: "doors-weekly", monday: true, tuesday: false })]);
    const trigger = (await ctx.api("GET", `/v4/task_events/${keys.triggerKey}?fields=table,event,task`)).body;
    expect(trigger).toMatchObject({ table: "alarms", event: "raised" });
  }, 300_000);

  test("read and diff: preview and refresh report no changes", async () => {
    expect(changed((await ctx.stack.preview(collect(ctx))).changeSummary)).toEqual([]);
    expect(changed((await ctx.stack.refresh(collect(ctx))).summary.resourceChanges ?? {})).toEqual([]);
  }, 300_000);

  test("read: a webhook's URL changed outside Pulumi is detected by refresh", async () => {
    await ctx.api("PUT", `/v4/webhook_urls/${keys.hookKey}`, { url: "https://127.0.0.1:10/" });
    const refresh = await ctx.stack.refresh(collect(ctx));
    expect(refresh.summary.resourceChanges?.update).toBe(1);
  }, 300_000);

  test("update: the webhook's URL put back and a new message, in place (same keys)", async () => {
    desired.message = "${NAME} raised at ${TIMESTAMP}";
    const up = await ctx.stack.up(collect(ctx));
    expect(changed(up.summary.resourceChanges ?? {})).toEqual(["update"]);
    expect(String(up.outputs.taskKey.value)).toBe(keys.taskKey);
    expect((await ctx.api("GET", `/v4/webhook_urls/${keys.hookKey}?fields=url`)).body.url).toBe("https://127.0.0.1:9/");
    expect(JSON.stringify((await task()).settings_args)).toContain("raised at ${TIMESTAMP}");
  }, 300_000);

  test("delete: a schedule no longer declared is removed, then destroy removes every row", async () => {
    desired.schedule = false;
    await ctx.stack.up(collect(ctx));
    expect(await schedules()).toEqual([]);
    await ctx.stack.destroy(collect(ctx));
    for (const [table, key] of [
      ["webhook_urls", keys.hookKey],
      ["tasks", keys.taskKey],
      ["task_events", keys.triggerKey],
    ])
      expect([table, (await ctx.api("GET", `/v4/${table}/${key}?fields=name`)).status]).toEqual([table, 404]);
  }, 300_000);
});
describe.each(doors)("users and API keys through %s", (door, declare) => {
  let ctx: E2eContext;
  const PASSWORD = "doors-pw-never-in-state";
  const desired = { rotation: "1" };
  const program: PulumiFn = async () => {
    const user = declare("User", "ci", { name: `doors-ci-${door.split(" ").pop()}`, role: "readonly", password: PASSWORD });
    const key = declare("ApiKey", "ci-key", { user: user.id, name: "ci", rotation: desired.rotation });
    return { keyId: key.id, secret: key.secret };
  };
  const status = (secret: string) => statusWithKey(ctx.emulator, secret);
  const stateText = () => storedState(ctx);
  const secrets: string[] = [];

  beforeAll(async () => {
    ctx = await startE2e(`doors-keys-${door.split(" ").pop()}`, program);
  }, 120_000);
  afterAll(async () => ctx?.dispose());

  test("create: the key's secret is a secret output that authenticates; state holds neither it nor the password", async () => {
    const up = await ctx.stack.up(collect(ctx));
    expect(up.outputs.secret.secret).toBe(true);
    secrets.push(up.outputs.secret.value);
    expect(await status(up.outputs.secret.value)).toBe(200);
    for (const plain of [...secrets, PASSWORD]) {
      expect(stateText()).not.toContain(plain);
      expect(ctx.output.join("")).not.toContain(plain);
    }
    expect(changed((await ctx.stack.preview(collect(ctx))).changeSummary)).toEqual([]);
  }, 300_000);

  test("rotation replaces the key: the new secret authenticates, the old one gets 401", async () => {
    desired.rotation = "2";
    const up = await ctx.stack.up(collect(ctx));
    expect(up.summary.resourceChanges).toMatchObject({ replace: 1 });
    expect(await status(up.outputs.secret.value)).toBe(200);
    expect(await status(secrets[0])).toBe(401);
    expect(stateText()).not.toContain(up.outputs.secret.value);
  }, 300_000);

  test("a key deleted outside Pulumi: refresh drops it, the next up creates it again", async () => {
    const keyId = (await ctx.stack.outputs()).keyId.value;
    expect((await ctx.api("DELETE", `/v4/user_api_keys/${keyId}`)).status).toBeLessThan(300);
    expect((await ctx.stack.refresh(collect(ctx))).summary.resourceChanges).toMatchObject({ delete: 1 });
    expect((await ctx.stack.preview(collect(ctx))).changeSummary).toMatchObject({ create: 1 });
    const up = await ctx.stack.up(collect(ctx));
    expect(await status(up.outputs.secret.value)).toBe(200);
    await ctx.stack.destroy(collect(ctx));
    expect((await ctx.api("GET", `/v4/user_api_keys/${up.outputs.keyId.value}?fields=name`)).status).toBe(404);
  }, 300_000);
});

const changed = (summary: Record<string, number | undefined>) => Object.keys(summary).filter((k) => k !== "same" && summary[k]);
