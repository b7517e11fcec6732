import { inspect } from "node:util";
import { ApiClient } from "../../../provider/client/api-client";
import { ApiError } from "../../../provider/client/errors";
import { type Reply, type SeenRequest, type TestServer, closedPortUrl, startResettingServer, startTestServer } from "./https-test-server";
import { API_KEY, clientFor, rejectionOf } from "./client-setup";

let server: TestServer;
let replies: Reply[] = [];
let fallback: (req: SeenRequest) => Reply = () => ({ status: 200, body: [] });

beforeAll(async () => {
  server = await startTestServer((req) => replies.shift() ?? fallback(req));
});
afterAll(() => server.close());
beforeEach(() => {
  server.seen.length = 0;
  replies = [];
  fallback = () => ({ status: 200, body: [] });
});
const answer = (...rs: Reply[]) => (replies = rs);

describe("retries of server errors", () => {
  test("GET, PUT and DELETE are retried on 500/502/503/504 until they succeed", async () => {
    const { client, delays } = clientFor(server);
    answer({ status: 502 }, { status: 503 }, { status: 504 }, { status: 200, body: [{ $key: 1 }] });
    await expect(client.list("vms")).resolves.toEqual([{ $key: 1 }]);
    answer({ status: 500 }, { status: 200 });
    await client.update("vms", 1, { ram: 2048 });
    answer({ status: 503 }, { status: 200 });
    await client.delete("vms", 1);
    expect(server.seen.map((r) => r.method)).toEqual(["GET", "GET", "GET", "GET", "PUT", "PUT", "DELETE", "DELETE"]);
    expect(delays).toHaveLength(5);
    client.close();
  });

  test("the backoff grows between attempts", async () => {
    const { client, delays } = clientFor(server, {}, { random: () => 1, retry: { baseDelayMs: 100, maxDelayMs: 10_000 } });
    answer({ status: 503 }, { status: 503 }, { status: 503 }, { status: 200, body: [] });
    await client.list("vms");
    expect(delays).toEqual([100, 200, 400]);
    client.close();
  });

  test("after the last attempt the error surfaces", async () => {
    const { client } = clientFor(server, {}, { retry: { attempts: 3 } });
    fallback = () => ({ status: 503, body: { error: "service unavailable" } });
    const err = await rejectionOf(client.get("vms", 1));
    expect(err).toMatchObject({ status: 503, message: "GET /v4/vms/1: 503 service unavailable" });
    expect(server.seen).toHaveLength(3);
    client.close();
  });

  test("POST is not retried on a server error: it may have been processed", async () => {
    const { client } = clientFor(server);
    answer({ status: 500, body: { error: "boom" } }, { status: 201, body: { $key: 1 } });
    await expect(client.create("vms", { name: "x" })).rejects.toMatchObject({ status: 500 });
    await expect(client.action("vm_actions", { vm: "1", action: "poweron" })).resolves.toEqual({ $key: 1 });
    expect(server.seen).toHaveLength(2);
    client.close();
  });

  test("507 (out of storage or cluster resources) is not retried", async () => {
    const { client } = clientFor(server);
    answer({ status: 507, body: { error: "insufficient storage space in the requested tier" } });
    await expect(client.update("machine_drives", 3, { disksize: 1 })).rejects.toMatchObject({ status: 507 });
    expect(server.seen).toHaveLength(1);
    client.close();
  });
});

describe("429", () => {
  test("every method waits for Retry-After and tries again (a 429 was not processed)", async () => {
    const { client, delays } = clientFor(server);
    answer({ status: 429, headers: { "retry-after": "2" } }, { status: 201, body: { $key: "7" } });
    await expect(client.create("vms", { name: "x" })).resolves.toMatchObject({ $key: "7" });
    answer({ status: 429, headers: { "retry-after": "1" } }, { status: 200, body: [] });
    await client.list("vms");
    expect(delays).toEqual([2000, 1000]);
    expect(server.seen).toHaveLength(4);
    client.close();
  });

  test("a Retry-After longer than the policy allows is not waited for", async () => {
    const { client, delays } = clientFor(server);
    answer({ status: 429, headers: { "retry-after": "3600" }, body: { error: "rate limit exceeded" } });
    await expect(client.list("vms")).rejects.toThrow("GET /v4/vms: 429 rate limit exceeded");
    expect(delays).toEqual([]);
    expect(server.seen).toHaveLength(1);
    client.close();
  });
});

describe("401", () => {
  test.each(["GET", "PUT", "DELETE", "POST"])("%s is never retried (accounts lock after a few failed logins)", async (method) => {
    const { client } = clientFor(server, { apiKey: undefined, username: "admin", password: "wrong" });
    fallback = () => ({ status: 401, body: { err: "invalid login or password" } });
    const call = {
      GET: () => client.list("vms"),
      PUT: () => client.update("vms", 1, {}),
      DELETE: () => client.delete("vms", 1),
      POST: () => client.create("vms", {}),
    }[method]!;
    await expect(call()).rejects.toMatchObject({ status: 401, apiMessage: "invalid login or password" });
    expect(server.seen).toHaveLength(1);
    expect(client.requestCount).toBe(1);
    client.close();
  });
});

describe("refused credentials name the settings to fix", () => {
  test.each([
    ["an API key", { apiKey: "wrong" }, "check vplatform:apiKey / VPLATFORM_API_KEY"],
    [
      "a user name and password",
      { apiKey: undefined, username: "admin", password: "wrong" },
      "check vplatform:username / VPLATFORM_USERNAME, vplatform:password",
    ],
  ])("%s: the 401 says which settings, and never the value", async (_, credentials, named) => {
    const { client } = clientFor(server, credentials);
    fallback = () => ({ status: 401, body: { err: "invalid login or password" } });
    const err = await rejectionOf(client.list("vms"));
    expect(err.message).toContain(named);
    expect(err.message).not.toContain("wrong");
    client.close();
  });
});

describe("an endpoint where nothing listens", () => {
  test("that never answered: retrying stops after the first-contact window, and the error names vplatform:endpoint", async () => {
    const url = await closedPortUrl();
    const { client } = clientFor({ url, caCert: server.caCert }, {}, { firstContactMs: 0, retry: { attempts: 40 } });
    const err = await rejectionOf(client.list("vms"));
    expect(client.requestCount).toBe(1);
    expect(err.message).toContain(`nothing was sent, nothing answers at ${url}: check vplatform:endpoint / VPLATFORM_ENDPOINT`);
    expect(err.message).toContain("--run-program");
    client.close();
  });

  test("that answered before: a refusal is a platform restart, retried as long as the policy allows", async () => {
    const restarting = await startTestServer(() => ({ status: 200, body: [] }));
    const { client, delays } = clientFor(restarting, {}, { firstContactMs: 0, retry: { attempts: 3 } });
    await client.list("vms");
    await restarting.close();
    const err = await rejectionOf(client.list("vms"));
    expect(err).toMatchObject({ status: 0, code: "ECONNREFUSED" });
    expect(delays).toHaveLength(2);
    client.close();
  });
});

describe("dropped connections", () => {
  test("a GET whose connection dropped after the request was read is retried", async () => {
    const { client } = clientFor(server);
    answer({ drop: true }, { status: 200, body: [{ $key: 1 }] });
    await expect(client.list("vms")).resolves.toEqual([{ $key: 1 }]);
    expect(server.seen).toHaveLength(2);
    client.close();
  });

  test("a POST whose connection dropped after the request was sent is not retried, and fails with status 0", async () => {
    const { client } = clientFor(server);
    answer({ drop: true }, { status: 201, body: { $key: "1" } });
    const err = await rejectionOf(client.create("vms", { name: "x" }));
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 0, method: "POST", path: "/v4/vms", code: "ECONNRESET" });
    expect(err.message).toMatch(/^POST \/v4\/vms: no response ECONNRESET/);
    expect(server.seen).toHaveLength(1);
    client.close();
  });

  test("a POST to an address where nothing listens is retried (the request was never sent)", async () => {
    const { client, delays } = clientFor({ url: await closedPortUrl(), caCert: server.caCert }, {}, { retry: { attempts: 3 } });
    const err = await rejectionOf(client.create("vms", { name: "x" }));
    expect(err).toMatchObject({ status: 0, code: "ECONNREFUSED" });
    expect(client.requestCount).toBe(3);
    expect(delays).toHaveLength(2);
    client.close();
  });

  test("a POST whose connection is reset before the TLS handshake ends is retried (nothing was written)", async () => {
    const resetting = await startResettingServer();
    const { client } = clientFor({ url: resetting.url, caCert: server.caCert }, {}, { retry: { attempts: 3 } });
    const err = await rejectionOf(client.action("vm_actions", { vm: "1", action: "poweron" }));
    expect(err).toMatchObject({ status: 0, code: "ECONNRESET" });
    expect(resetting.connections()).toBe(3);
    client.close();
    await resetting.close();
  });
});

describe("timeouts", () => {
  test("a GET without an answer, from a platform that answered before, times out after requestTimeoutMs and is retried", async () => {
    const { client } = clientFor(server, { requestTimeoutMs: 150 });
    answer({ status: 200, body: [] }, { hang: true }, { status: 200, body: [] });
    await client.list("vms");
    await expect(client.list("vms")).resolves.toEqual([]);
    expect(server.seen).toHaveLength(3);
    client.close();
  });

  test("an endpoint that takes the connection and never answers: one request timeout, then an error naming the endpoint and the setting", async () => {
    const { client, delays } = clientFor(server, { requestTimeoutMs: 150 }, { retry: { attempts: 40 } });
    answer({ hang: true }, { status: 200, body: [] });
    const started = Date.now();
    const err = await rejectionOf(client.list("vms"));
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(err).toMatchObject({ status: 0, code: "ETIMEDOUT" });
    expect(err.message).toContain(
      `${server.url} accepted the connection but never answered within 0.15 s (vplatform:requestTimeoutMs / VPLATFORM_REQUEST_TIMEOUT_MS): check vplatform:endpoint / VPLATFORM_ENDPOINT`,
    );
    expect(server.seen).toHaveLength(1);
    expect(delays).toEqual([]);
    client.close();
  });

  test("a POST that timed out after it was sent is not retried", async () => {
    const { client } = clientFor(server, { requestTimeoutMs: 150 });
    answer({ hang: true }, { status: 201, body: { $key: "1" } });
    const err = await rejectionOf(client.create("vms", { name: "x" }));
    expect(err).toMatchObject({ status: 0, code: "ETIMEDOUT" });
    expect(server.seen).toHaveLength(1);
    client.close();
  });
});

describe("TLS", () => {
  test("verification is on: the test server's self-signed certificate is refused without caCert, with a hint", async () => {
    const { client } = clientFor(server, { caCert: undefined });
    const err = await rejectionOf(client.list("vms"));
    expect(err).toMatchObject({ status: 0 });
    expect(err.code).toMatch(/SELF_SIGNED|UNABLE_TO_VERIFY/);
    expect(err.message).toContain("set vplatform:caCert");
    expect(client.requestCount).toBe(1);
    expect(server.seen).toHaveLength(0);
    client.close();
  });

  test("caCert makes the certificate trusted", async () => {
    const { client } = clientFor(server);
    await expect(client.list("vms")).resolves.toEqual([]);
    client.close();
  });

  test("insecure skips verification when asked", async () => {
    const { client } = clientFor(server, { caCert: undefined, insecure: true });
    await expect(client.list("vms")).resolves.toEqual([]);
    client.close();
  });

  test("the host name is still checked against the certificate when a CA is given", async () => {
    const { client } = clientFor({ url: server.url.replace("127.0.0.1", "localhost"), caCert: server.caCert });
    const err = await rejectionOf(client.list("vms"));
    expect(err.code).toBe("ERR_TLS_CERT_ALTNAME_INVALID");
    client.close();
  });
});

describe("secrets never leave the client", () => {
  const PASSWORD = "Pa55-w0rd-SECRET";
  const TOKEN = "sess-token-SECRET-42";
  const kinds = {
    "API key": { apiKey: API_KEY },
    "session token": { apiKey: undefined, sessionToken: TOKEN },
    "user name and password": { apiKey: undefined, username: "admin", password: PASSWORD },
  };
  const SECRETS = [API_KEY, PASSWORD, TOKEN, Buffer.from(`admin:${PASSWORD}`).toString("base64")];

  function expectNoSecret(...things: unknown[]) {
    for (const thing of things) {
      const views = [
        inspect(thing, { depth: 10, showHidden: true }),
        JSON.stringify(thing) ?? "",
        String(thing),
        (thing as Error)?.stack ?? "",
      ];
      for (const view of views) for (const secret of SECRETS) expect(view).not.toContain(secret);
    }
  }

  test.each(Object.entries(kinds))("with %s: HTTP errors, even ones echoing the credential, are redacted", async (_kind, credentials) => {
    const { client, events } = clientFor(server, credentials);
    fallback = (req) => ({ status: 401, body: { err: `bad credentials: ${JSON.stringify(req.headers)}` } });
    const err = await rejectionOf(client.list("vms"));
    expect(err.message).toContain("[redacted]");
    expectNoSecret(err, client, events);
    client.close();
  });

  test.each(Object.entries(kinds))("with %s: connection, timeout and TLS errors carry no credential", async (_kind, credentials) => {
    const errors: unknown[] = [];
    const refused = clientFor({ url: await closedPortUrl(), caCert: server.caCert }, credentials, { retry: { attempts: 1 } });
    errors.push(await rejectionOf(refused.client.create("vms", { name: "x" })));
    const slow = clientFor(server, { ...credentials, requestTimeoutMs: 100 }, { retry: { attempts: 1 } });
    answer({ hang: true });
    errors.push(await rejectionOf(slow.client.list("vms")));
    const untrusting = clientFor(server, { ...credentials, caCert: undefined });
    errors.push(await rejectionOf(untrusting.client.list("vms")));
    expectNoSecret(...errors, refused.client, slow.client, untrusting.client);
    for (const c of [refused, slow, untrusting]) c.client.close();
  });

  test("inspect of the client shows the endpoint and count only", () => {
    const client = new ApiClient({
      endpoint: "https://h",
      apiKey: API_KEY,
      insecure: false,
      tokenHeader: "x-service-token",
      requestTimeoutMs: 1000,
    });
    expect(inspect(client)).toBe("ApiClient { endpoint: 'https://h', requestCount: 0 }");
    expect(JSON.stringify(client)).toBe('{"endpoint":"https://h","requestCount":0}');
    client.close();
  });
});
