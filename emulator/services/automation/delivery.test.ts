import type { EmulatorContext } from "../../engine/context";
import type { Row } from "../../model/types";
import { admin, contextWith, del, eventually, get, post, put, refusal } from "../../requests/testSupport";
import { automationFeature } from "./index";
import { Receiver } from "./testReceiver";

let ctx: EmulatorContext;
let receiver: Receiver;
let hookCount = 0;

beforeEach(async () => {
  ctx = contextWith([automationFeature()]);
  receiver = await Receiver.start();
});

afterEach(async () => {
  ctx.close();
  await receiver.close();
});

function createWebhook(settings: Record<string, unknown> = {}, url = receiver.url): string {
  return String(post(ctx, "webhook_urls", { name: `hook-${++hookCount}`, url, ...settings }).$key);
}

/** webhook_url_actions send; answers the delivery log key. */
function sendTest(hook: string, message?: string): string {
  return String(
    post(ctx, "webhook_url_actions", { webhook_url: hook, action: "send", params: message === undefined ? {} : { message } }).$key,
  );
}

async function finished(logKey: string, timeoutMs?: number): Promise<Row> {
  return eventually(() => {
    const row = ctx.get("webhooks", logKey);
    return row && (row.status === "sent" || row.status === "error") ? row : undefined;
  }, timeoutMs);
}

describe("webhook settings", () => {
  it("defaults to a JSON content type header, no authorization, timeout 5 s and 3 retries", () => {
    const hook = createWebhook();
    expect(get(ctx, "webhook_urls", hook)).toMatchObject({
      type: "custom",
      headers: "Content-Type: application/json",
      authorization_type: "none",
      allow_insecure: false,
      timeout: 5,
      retries: 3,
    });
  });

  it("never returns the authorization value", () => {
    const hook = createWebhook({ authorization_type: "bearer", authorization_value: "s3cret" });
    expect(JSON.stringify(get(ctx, "webhook_urls", hook, "all"))).not.toContain("s3cret");
    expect(get(ctx, "webhook_urls", hook, "authorization_value").authorization_value).toBeNull();
  });

  it.each([
    [{ timeout: 2 }, "timeout", "must be 3 or greater (at most 120)"],
    [{ headers: "X-Ok: 1\nnot a header" }, "headers", "line 'not a header' is not 'Name: Value'"],
    [{ headers: "Bad Name: 1" }, "headers", "'Bad Name' is not a valid header name"],
    [{ authorization_type: "basic", authorization_value: "no-colon" }, "authorization_value", "must be 'user:password' for basic"],
    [{ authorization_type: "bearer" }, "authorization_value", "is required for authorization_type bearer"],
    [{ authorization_type: "oauth" }, "authorization_type", "'oauth' is not a valid option (valid: none, basic, bearer, apikey)"],
    [{ url: "ftp://example.test/" }, "url", "fails validation test"],
  ])("refuses %j with 400 naming the field", (settings, field, reason) => {
    const error = refusal(() => createWebhook(settings));
    expect([error.status, error.message]).toEqual([400, `Validation error on field: '${field}' - '${reason}'`]);
  });

  it("refuses to delete a webhook a task uses (409)", () => {
    const hook = createWebhook();
    post(ctx, "tasks", { name: "notify", owner: `webhook_urls/${hook}` });
    expect(refusal(() => del(ctx, "webhook_urls", hook)).status).toBe(409);
  });
});

describe("delivered request", () => {
  it("POSTs the message to the URL with the configured headers in their order", async () => {
    const hook = createWebhook({ headers: "X-Second: b\nContent-Type: application/json\nX-First: a" });
    const log = await finished(sendTest(hook, '{"text": "hello"}'));
    expect(log).toMatchObject({ status: "sent", attempts: 1, response_code: 200, status_info: "HTTP 200", message: '{"text": "hello"}' });
    const [request] = receiver.received;
    expect([request.method, request.path, request.body]).toEqual(["POST", "/hook?source=emulator", '{"text": "hello"}']);
    const configured = request.headers.map(([name]) => name).filter((n) => ["X-Second", "Content-Type", "X-First"].includes(n));
    expect(configured).toEqual(["X-Second", "Content-Type", "X-First"]);
  });

  it("sends the default message when a test send has none", async () => {
    await finished(sendTest(createWebhook()));
    expect(receiver.received[0].body).toBe('{"message": "Webhook"}');
  });

  it("logs the delivery as queued first, then as sent", async () => {
    const logKey = sendTest(createWebhook());
    expect(get(ctx, "webhooks", logKey, "status").status).toBe("queued");
    await finished(logKey);
    expect(get(ctx, "webhooks", logKey, "webhook_url,task,status,attempts")).toMatchObject({ task: null, status: "sent", attempts: 1 });
  });
});

describe("authorization types", () => {
  it.each([
    ["bearer", "tok-123", "Bearer tok-123"],
    ["apikey", "raw-key-456", "raw-key-456"],
    ["basic", "alice:pa:ss", `Basic ${Buffer.from("alice:pa:ss").toString("base64")}`],
  ])("%s sends Authorization: %s", async (type, value, expected) => {
    await finished(sendTest(createWebhook({ authorization_type: type, authorization_value: value })));
    expect(receiver.header(receiver.received[0], "Authorization")).toBe(expected);
  });

  it("none sends no Authorization header", async () => {
    await finished(sendTest(createWebhook()));
    expect(receiver.header(receiver.received[0], "Authorization")).toBeUndefined();
  });

  it("replaces an Authorization header configured among the headers", async () => {
    await finished(
      sendTest(createWebhook({ headers: "Authorization: stale", authorization_type: "bearer", authorization_value: "fresh" })),
    );
    expect(receiver.received[0].headers.filter(([n]) => n.toLowerCase() === "authorization")).toEqual([["Authorization", "Bearer fresh"]]);
  });
});

describe("message variables", () => {
  it("expands ${DATE}, ${TIMESTAMP}, ${RANDOM} and ${NAME} (a test send names the webhook)", async () => {
    const before = Math.floor(Date.now() / 1000);
    const hook = createWebhook({ name: "alerts" });
    await finished(sendTest(hook, '{"d":"${DATE}","t":${TIMESTAMP},"r":${RANDOM},"n":"${NAME}","x":"${OTHER}"}'));
    const body = JSON.parse(receiver.received[0].body) as { d: string; t: number; r: number; n: string; x: string };
    expect(body.t).toBeGreaterThanOrEqual(before);
    expect(Math.abs(Date.parse(body.d) / 1000 - body.t)).toBeLessThanOrEqual(1);
    expect(Number.isInteger(body.r)).toBe(true);
    expect([body.n, body.x]).toEqual(["alerts", "${OTHER}"]);
  });
});

describe("retries", () => {
  it("retries an error status and ends sent when a later attempt succeeds", async () => {
    receiver.plan.push(500, 503);
    const log = await finished(sendTest(createWebhook({ retries: 3 })));
    expect(log).toMatchObject({ status: "sent", attempts: 3 });
    expect(receiver.received).toHaveLength(3);
  });

  it("gives up after 1 + retries attempts with the last failure in status_info", async () => {
    receiver.plan.push(500, 500, 500);
    const log = await finished(sendTest(createWebhook({ retries: 1 })));
    expect(log).toMatchObject({ status: "error", attempts: 2, response_code: 500, status_info: "HTTP 500: failure 500" });
    expect(receiver.received).toHaveLength(2);
  });

  it("retries when there is no answer at all (connection refused)", async () => {
    const closed = await Receiver.start();
    await closed.close();
    const log = await finished(sendTest(createWebhook({ retries: 2 }, closed.url)));
    expect(log).toMatchObject({ status: "error", attempts: 3, status_info: "request failed: ECONNREFUSED" });
  });

  it("makes a single attempt with retries 0", async () => {
    receiver.plan.push(404);
    expect(await finished(sendTest(createWebhook({ retries: 0 })))).toMatchObject({ status: "error", attempts: 1 });
  });
});

describe("timeout", () => {
  it("abandons an attempt after timeout seconds (not scaled) and counts it as failed", async () => {
    receiver.plan.push("stall");
    const log = await finished(sendTest(createWebhook({ timeout: 3, retries: 0 })), 15_000);
    expect(log).toMatchObject({ status: "error", attempts: 1, status_info: "no response within 3 s" });
    await eventually(() => (receiver.abandoned === 1 ? true : undefined));
  }, 20_000);
});

describe("TLS verification", () => {
  let tlsReceiver: Receiver;

  beforeEach(async () => {
    tlsReceiver = await Receiver.startSelfSigned();
  });

  afterEach(async () => {
    await tlsReceiver.close();
  });

  it("refuses a self-signed receiver unless allow_insecure is set", async () => {
    const strict = await finished(sendTest(createWebhook({ retries: 0 }, tlsReceiver.url)));
    expect(strict.status).toBe("error");
    expect(String(strict.status_info)).toMatch(
      /^request failed: (DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|ERR_TLS_CERT_ALTNAME_INVALID)/,
    );
    expect(tlsReceiver.received).toHaveLength(0);
  });

  it("delivers over HTTPS to a self-signed receiver with allow_insecure", async () => {
    const log = await finished(
      sendTest(createWebhook({ allow_insecure: true, authorization_type: "bearer", authorization_value: "t" }, tlsReceiver.url)),
    );
    expect(log.status).toBe("sent");
    expect(tlsReceiver.header(tlsReceiver.received[0], "Authorization")).toBe("Bearer t");
  });
});

describe("delivery log", () => {
  it("is read-only apart from delete", async () => {
    const logKey = sendTest(createWebhook());
    await finished(logKey);
    expect(refusal(() => post(ctx, "webhooks", { message: "x" })).status).toBe(405);
    expect(refusal(() => put(ctx, "webhooks", logKey, { status: "sent" })).status).toBe(405);
    del(ctx, "webhooks", logKey, admin);
    expect(ctx.get("webhooks", logKey)).toBeUndefined();
  });
});

describe("closing the emulator", () => {
  it("aborts deliveries in flight", async () => {
    receiver.plan.push("stall");
    sendTest(createWebhook({ timeout: 60 }));
    await eventually(() => (receiver.received.length === 1 ? true : undefined));
    ctx.close();
    await eventually(() => (receiver.abandoned === 1 ? true : undefined), 2000);
  });
});
