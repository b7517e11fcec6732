import { Receiver } from "../../emulator/services/automation/testReceiver";
import { startTestEmulator, type Client } from "./helpers";

let c: Client;
let receiver: Receiver;
let operatorKey: string;

beforeAll(async () => {
  c = await startTestEmulator();
  receiver = await Receiver.start();
  operatorKey = await c.emu.createApiKey({ user: "operator", name: "op" });
});

afterAll(async () => {
  await c.emu.close();
  await receiver.close();
});

async function createWebhook(name: string): Promise<string> {
  const reply = await c.post("/api/v4/webhook_urls", { name, url: receiver.url, retries: 0 });
  expect(reply.status).toBe(201);
  return reply.body.$key;
}

async function createTask(name: string, settings: Record<string, unknown> = {}): Promise<string> {
  const hook = await createWebhook(`${name}-hook`);
  const reply = await c.post("/api/v4/tasks", { name, owner: `webhook_urls/${hook}`, ...settings });
  expect(reply.status).toBe(201);
  return reply.body.$key;
}

/** Waits for a delivery log row to end and answers it. */
function delivered(log: string): Promise<any> {
  return c.waitFor(`/api/v4/webhooks/${log}?fields=all`, (row) => row.status === "sent" || row.status === "error");
}

describe("POST /v4/webhook_urls/{key}/send", () => {
  test("delivers {message} as webhook_url_actions send does: 201 with the delivery log key", async () => {
    const hook = await createWebhook("send-path");
    const reply = await c.post(`/api/v4/webhook_urls/${hook}/send`, { message: '{"text": "${NAME}"}' });
    expect(reply.status).toBe(201);
    const log = await delivered(reply.body.$key);
    expect(log).toMatchObject({ webhook_url: Number(hook), task: null, status: "sent", message: '{"text": "send-path"}' });
    expect(receiver.received.at(-1)!.body).toBe('{"text": "send-path"}');
  });

  test("sends the default message when the body has none", async () => {
    const hook = await createWebhook("send-default");
    const reply = await c.request("POST", `/api/v4/webhook_urls/${hook}/send`);
    expect(reply.status).toBe(201);
    expect((await delivered(reply.body.$key)).message).toBe('{"message": "Webhook"}');
  });

  test("needs credentials (401) and administrator rights (403)", async () => {
    const hook = await createWebhook("send-auth");
    expect((await c.post(`/api/v4/webhook_urls/${hook}/send`, { message: "m" }, "none")).status).toBe(401);
    expect((await c.post(`/api/v4/webhook_urls/${hook}/send`, { message: "m" }, { bearer: operatorKey })).status).toBe(403);
  });

  test("answers 404 for a missing webhook and for an action the webhook does not offer", async () => {
    const missing = await c.post("/api/v4/webhook_urls/999/send", { message: "m" });
    expect(missing).toMatchObject({ status: 404, body: { error: "Resource '/v4/webhook_urls/999' not found during action" } });
    const hook = await createWebhook("send-unknown");
    expect((await c.post(`/api/v4/webhook_urls/${hook}/explode`, {})).status).toBe(404);
  });

  test("refuses an unknown body field (422) and a body that is not an object (400)", async () => {
    const hook = await createWebhook("send-invalid");
    const unknown = await c.post(`/api/v4/webhook_urls/${hook}/send`, { message: "m", urgent: true });
    expect(unknown).toMatchObject({ status: 422, body: { err: "Validation error on field: 'params.urgent' - 'unknown parameter'" } });
    expect((await c.post(`/api/v4/webhook_urls/${hook}/send`, ["m"])).status).toBe(400);
  });
});

describe("PUT /v4/tasks/{key}?action=execute", () => {
  test("runs the task as task_actions execute does, even when disabled: 200 with the task and the delivery log key", async () => {
    const task = await createTask("put-execute", { enabled: false, settings_args: { message: "run ${NAME}" } });
    const reply = await c.put(`/api/v4/tasks/${task}?action=execute`, { params: {} });
    expect(reply.status).toBe(200);
    expect(reply.body.task).toBe(task);
    const log = await delivered(reply.body.$key);
    expect(log).toMatchObject({ task: Number(task), status: "sent", message: "run put-execute" });
    await c.waitFor(`/api/v4/tasks/${task}?fields=status,last_run`, (t) => t.status === "idle" && t.last_run > 0);
  });

  test("takes an empty body", async () => {
    const task = await createTask("put-execute-empty");
    const reply = await c.request("PUT", `/api/v4/tasks/${task}?action=execute`);
    expect(reply.status).toBe(200);
    await delivered(reply.body.$key);
  });

  test("needs credentials (401) and administrator rights (403)", async () => {
    const task = await createTask("put-execute-auth");
    expect((await c.put(`/api/v4/tasks/${task}?action=execute`, {}, "none")).status).toBe(401);
    expect((await c.put(`/api/v4/tasks/${task}?action=execute`, {}, { bearer: operatorKey })).status).toBe(403);
  });

  test("answers 404 for a missing task", async () => {
    const reply = await c.put("/api/v4/tasks/999?action=execute", {});
    expect(reply).toMatchObject({ status: 404, body: { error: "Resource '/v4/tasks/999' not found during action" } });
  });

  test("refuses an unknown action (400) and a second execute of a one-time task whose run is in progress (409)", async () => {
    const task = await createTask("put-execute-once", { delete_after_run: true });
    const bad = await c.put(`/api/v4/tasks/${task}?action=explode`, {});
    expect(bad.status).toBe(400);
    expect(bad.body.err).toContain("'action'");
    receiver.plan.push("stall");
    expect((await c.put(`/api/v4/tasks/${task}?action=execute`, {})).status).toBe(200);
    expect((await c.put(`/api/v4/tasks/${task}?action=execute`, {})).status).toBe(409);
  });

  test("a PUT without ?action is still an ordinary update", async () => {
    const task = await createTask("put-update");
    const reply = await c.put(`/api/v4/tasks/${task}`, { enabled: false });
    expect(reply.status).toBe(200);
    expect(reply.body.enabled).toBe(false);
  });
});
