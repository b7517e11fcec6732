import { ApiError } from "../../../provider/client/errors";
import { BudgetWaitTooLong, RequestPacer } from "../../../provider/client/pacer";
import { deadlineIn, withDeadline } from "../../../provider/client/operationDeadline";
import { DEFAULT_RETRY } from "../../../provider/client/retry-policy";
import { type Reply, type SeenRequest, type TestServer, startTestServer } from "./https-test-server";
import { API_KEY, clientFor, rejectionOf } from "./client-setup";

let server: TestServer;
let replies: ((req: SeenRequest) => Reply)[] = [];
let fallback: (req: SeenRequest) => Reply = () => ({ status: 200, body: [] });

beforeAll(async () => {
  server = await startTestServer((req) => (replies.shift() ?? fallback)(req));
});
afterAll(() => server.close());
beforeEach(() => {
  server.seen.length = 0;
  replies = [];
  fallback = () => ({ status: 200, body: [] });
});
const answer = (...rs: Reply[]) => (replies = rs.map((r) => () => r));

/** Virtual time for the pacer: sleeps advance it at once and are recorded. */
function pacerClock() {
  let now = 1_000_000;
  const sleeps: number[] = [];
  const lines: string[] = [];
  return {
    sleeps,
    lines,
    now: () => now,
    advance: (ms: number) => void (now += ms),
    sleep: async (ms: number) => void (sleeps.push(ms), (now += ms)),
    log: (line: string) => void lines.push(line),
  };
}

describe("requests", () => {
  test("list: GET /api/v4/<table> with the query options, spaces as %20, $ and # encoded", async () => {
    const { client } = clientFor(server);
    answer({ status: 200, body: [{ $key: 1, name: "web" }] });
    const rows = await client.list("vms", { fields: "$key,machine#status#status as status", filter: "name eq 'web'", limit: 2 });
    expect(rows).toEqual([{ $key: 1, name: "web" }]);
    expect(server.seen[0]).toMatchObject({
      method: "GET",
      url: "/api/v4/vms?fields=%24key%2Cmachine%23status%23status%20as%20status&filter=name%20eq%20%27web%27&limit=2",
    });
    expect(server.seen[0].headers.accept).toBe("application/json");
    client.close();
  });

  test("get: GET /api/v4/<table>/<key>; undefined on 404", async () => {
    const { client } = clientFor(server);
    answer({ status: 200, body: { $key: 5, ram: 2048 } }, { status: 404, body: { err: "Resource '/v4/vms/6' not found during get" } });
    await expect(client.get("vms", 5, { fields: "ram" })).resolves.toEqual({ $key: 5, ram: 2048 });
    await expect(client.get("vms", "6")).resolves.toBeUndefined();
    expect(server.seen.map((r) => r.url)).toEqual(["/api/v4/vms/5?fields=ram", "/api/v4/vms/6"]);
    client.close();
  });

  test("keys are path-encoded; empty keys and odd table names are refused before sending", async () => {
    const { client } = clientFor(server);
    answer({ status: 200, body: { $key: "a/b c" } });
    await client.get("volume_browser", "a/b c");
    expect(server.seen[0].url).toBe("/api/v4/volume_browser/a%2Fb%20c");
    await expect(client.get("vms", "")).rejects.toThrow("empty key for table 'vms'");
    await expect(client.list("../sys/tokens")).rejects.toThrow("invalid table name");
    expect(server.seen).toHaveLength(1);
    expect(client.requestCount).toBe(1);
    client.close();
  });

  test("create: POST a JSON body; $key comes back as a string with the rest of the answer", async () => {
    const { client } = clientFor(server);
    answer({ status: 201, body: { location: "/v4/vms/42", dbpath: "vms/42", $row: 42, $key: 42, response: { machine: "154" } } });
    await expect(client.create("vms", { name: "web", ram: 2048 })).resolves.toEqual({
      location: "/v4/vms/42",
      dbpath: "vms/42",
      $row: 42,
      $key: "42",
      response: { machine: "154" },
    });
    expect(server.seen[0]).toMatchObject({ method: "POST", url: "/api/v4/vms", body: '{"name":"web","ram":2048}' });
    expect(server.seen[0].headers["content-type"]).toMatch(/^application\/json/);
    client.close();
  });

  test("create: without $key the key is taken from location", async () => {
    const { client } = clientFor(server);
    answer({ status: 201, body: { location: "/v4/vnets/300" } });
    await expect(client.create("vnets", { name: "lan" })).resolves.toMatchObject({ $key: "300" });
    client.close();
  });

  test("update: PUT the changed fields; delete: DELETE, empty answers are fine", async () => {
    const { client } = clientFor(server);
    answer({ status: 200, body: {} }, { status: 200 });
    await client.update("vms", 42, { ram: 4096 });
    await client.delete("vms", 42);
    expect(server.seen.map((r) => [r.method, r.url, r.body])).toEqual([
      ["PUT", "/api/v4/vms/42", '{"ram":4096}'],
      ["DELETE", "/api/v4/vms/42", ""],
    ]);
    client.close();
  });

  test("delete: a 404 is thrown (callers decide whether gone is fine)", async () => {
    const { client } = clientFor(server);
    answer({ status: 404, body: { err: "Resource '/v4/vms/9' not found during delete" } });
    await expect(client.delete("vms", 9)).rejects.toMatchObject({ status: 404, method: "DELETE", path: "/v4/vms/9" });
    client.close();
  });

  test("action: POST to an *_actions table, the answer's body is returned ({} when empty)", async () => {
    const { client } = clientFor(server);
    answer({ status: 201, body: { task: 666 } }, { status: 201 });
    await expect(client.action("vm_actions", { vm: "42", action: "poweron", params: {} })).resolves.toEqual({ task: 666 });
    await expect(client.action("vm_actions", { vm: "42", action: "kill" })).resolves.toEqual({});
    expect(server.seen[0]).toMatchObject({ method: "POST", url: "/api/v4/vm_actions", body: '{"vm":"42","action":"poweron","params":{}}' });
    client.close();
  });

  test("an endpoint with a path prefix keeps it", async () => {
    const { client } = clientFor({ ...server, url: `${server.url}/` }, { endpoint: `${server.url}/` });
    await client.list("vms");
    expect(server.seen[0].url).toBe("/api/v4/vms");
    client.close();
  });

  test("a 2xx answer that is not JSON is an error, not a crash", async () => {
    const { client } = clientFor(server);
    answer({ status: 200, body: "<html>proxy</html>" });
    await expect(client.list("vms")).rejects.toThrow("GET /v4/vms: 200 response is not JSON");
    client.close();
  });
});

describe("the platform's clock is learned from its answers' Date header", () => {
  test("an answer dated a day ahead, an error's too, sets the client's clock a day ahead", async () => {
    const { client } = clientFor(server);
    expect(client.clock.known).toBe(false);
    const dayAhead = new Date(Date.now() + 86_400_000).toUTCString();
    answer({ status: 404, body: { err: "not found" }, headers: { date: dayAhead } });
    await client.get("vms", 6);
    expect(client.clock.known).toBe(true);
    expect(Math.abs(client.clock.now() - Date.parse(dayAhead))).toBeLessThan(5000);
    client.close();
  });
});

describe("errors", () => {
  test("carry status, method, path and the API's err text", async () => {
    const { client } = clientFor(server);
    answer({ status: 400, body: { err: "Validation error on field: 'ram' - 'fails validation test'" } });
    const err = await rejectionOf(client.create("vms", { name: "x", ram: 1 }));
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({
      status: 400,
      method: "POST",
      path: "/v4/vms",
      apiMessage: "Validation error on field: 'ram' - 'fails validation test'",
    });
    expect(err.message).toBe("POST /v4/vms: 400 Validation error on field: 'ram' - 'fails validation test'");
    client.close();
  });

  test("or the API's error text", async () => {
    const { client } = clientFor(server);
    answer({ status: 409, body: { error: "VM with that name exists" } });
    await expect(client.create("vms", { name: "x" })).rejects.toThrow("POST /v4/vms: 409 VM with that name exists");
    client.close();
  });
});

describe("credentials", () => {
  test("an API key is sent as a Bearer token", async () => {
    const { client } = clientFor(server);
    await client.list("vms");
    expect(server.seen[0].headers.authorization).toBe(`Bearer ${API_KEY}`);
    client.close();
  });

  test("a session token is sent in the token header (default x-service-token, or the configured one)", async () => {
    const a = clientFor(server, { apiKey: undefined, sessionToken: "sess-1" });
    const b = clientFor(server, { apiKey: undefined, sessionToken: "sess-2", tokenHeader: "x-yottabyte-token" });
    await a.client.list("vms");
    await b.client.list("vms");
    expect(server.seen[0].headers["x-service-token"]).toBe("sess-1");
    expect(server.seen[0].headers.authorization).toBeUndefined();
    expect(server.seen[1].headers["x-yottabyte-token"]).toBe("sess-2");
    a.client.close();
    b.client.close();
  });

  test("user name and password are sent as Basic credentials", async () => {
    const { client } = clientFor(server, { apiKey: undefined, username: "admin", password: "pa:ss" });
    await client.list("vms");
    expect(server.seen[0].headers.authorization).toBe(`Basic ${Buffer.from("admin:pa:ss").toString("base64")}`);
    client.close();
  });
});

describe("connections", () => {
  test("requests share one keep-alive connection; close() ends it", async () => {
    const { client } = clientFor(server);
    const before = server.connections;
    for (let i = 0; i < 3; i++) await client.list("vms");
    expect(server.connections - before).toBe(1);
    client.close();
    for (let i = 0; i < 50 && (await server.openConnections()) > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await server.openConnections()).toBe(0);
  });
});

describe("request accounting", () => {
  test("requestCount counts the requests sent, retries included, and onRequest sees each attempt", async () => {
    const { client, events } = clientFor(server);
    answer({ status: 503 }, { status: 200, body: [] });
    await client.list("vms");
    await client.get("vms", 1);
    expect(client.requestCount).toBe(3);
    expect(events).toEqual([
      { method: "GET", path: "/v4/vms", status: 503 },
      { method: "GET", path: "/v4/vms", status: 200 },
      { method: "GET", path: "/v4/vms/1", status: 200 },
    ]);
    client.close();
  });

  test("the request budget paces: past the budget a request waits until the oldest one leaves the window, and says so", async () => {
    const clock = pacerClock();
    const { client } = clientFor(server, { requestBudget: 2, requestBudgetWindowSec: 60 }, { pacer: new RequestPacer(clock) });
    await client.list("vms");
    clock.advance(10_000);
    await client.list("vms");
    await client.list("vnets");
    expect(server.seen).toHaveLength(3);
    expect(clock.sleeps).toEqual([50_000]); // the first request leaves the 60 s window 60 s after it went
    expect(clock.lines).toEqual([
      "vplatform: the request budget of 2 requests per 60s is used; waiting 50s before the next request (2 sent so far)",
    ]);
    client.close();
  });

  test("no window of the budget's length ever holds more than the budget", async () => {
    const clock = pacerClock();
    const { client } = clientFor(server, { requestBudget: 3, requestBudgetWindowSec: 10 }, { pacer: new RequestPacer(clock) });
    const sentAt: number[] = [];
    for (let i = 0; i < 10; i++) {
      await client.list("vms");
      sentAt.push(clock.now());
      clock.advance(1_000);
    }
    for (const t of sentAt) expect(sentAt.filter((u) => u >= t && u < t + 10_000).length).toBeLessThanOrEqual(3);
    client.close();
  });

  test("retries are paced like any request", async () => {
    const clock = pacerClock();
    const { client } = clientFor(server, { requestBudget: 2, requestBudgetWindowSec: 60 }, { pacer: new RequestPacer(clock) });
    answer({ status: 503 }, { status: 503 }, { status: 200, body: [] });
    await expect(client.list("vms")).resolves.toEqual([]);
    expect(server.seen).toHaveLength(3);
    expect(clock.sleeps).toEqual([60_000]);
    client.close();
  });

  test("the budget is shared by the clients of one pacer (a new client per configure() does not reset it)", async () => {
    const clock = pacerClock();
    const pacer = new RequestPacer(clock);
    const first = clientFor(server, { requestBudget: 2, requestBudgetWindowSec: 60 }, { pacer });
    await first.client.list("vms");
    first.client.close();
    const second = clientFor(server, { requestBudget: 2, requestBudgetWindowSec: 60 }, { pacer });
    await second.client.list("vms");
    await second.client.list("vms");
    expect(clock.sleeps).toEqual([60_000]);
    expect(pacer.sent).toBe(3);
    second.client.close();
  });

  test("inside a resource operation a wait for the budget past its deadline fails and names the timeout", async () => {
    const clock = pacerClock();
    const { client } = clientFor(server, { requestBudget: 1, requestBudgetWindowSec: 3600 }, { pacer: new RequestPacer(clock) });
    await client.list("vms");
    const err = await rejectionOf(withDeadline(deadlineIn(600, "timeouts.create"), () => client.list("vnets")));
    expect(err).toBeInstanceOf(BudgetWaitTooLong);
    expect(err.message).toBe(
      "GET /v4/vnets: not sent, the request budget (1 requests per 3600s) lets the next request go in 3600s, after this operation's timeout; " +
        "raise the resource's timeouts, vplatform:requestBudget, or run again later (timeouts.create)",
    );
    expect(server.seen).toHaveLength(1);
    client.close();
  });
});

describe("429 inside a resource operation", () => {
  test("is honoured with its Retry-After however long, within the operation's timeout, without using up the attempts", async () => {
    const clock = pacerClock();
    const { client } = clientFor(server, {}, { pacer: new RequestPacer(clock) });
    answer(
      ...Array.from({ length: 5 }, () => ({ status: 429, headers: { "retry-after": "120" }, body: { error: "rate limit exceeded" } })),
      { status: 200, body: [] },
    );
    await expect(withDeadline(deadlineIn(900, "timeouts.create"), () => client.list("vms"))).resolves.toEqual([]);
    expect(server.seen).toHaveLength(6);
    expect(clock.sleeps).toEqual(Array(5).fill(120_000));
    expect(clock.lines[0]).toBe("vplatform: the platform answered 429 (rate limit); waiting 120s before the next request (1 sent so far)");
    client.close();
  });

  test("without a Retry-After it pauses the longest backoff, then sends again", async () => {
    const clock = pacerClock();
    const { client } = clientFor(server, {}, { pacer: new RequestPacer(clock) });
    answer({ status: 429, body: { error: "rate limit exceeded" } }, { status: 200, body: [] });
    await expect(withDeadline(deadlineIn(900, "timeouts.create"), () => client.list("vms"))).resolves.toEqual([]);
    expect(server.seen).toHaveLength(2);
    expect(clock.sleeps).toEqual([DEFAULT_RETRY.maxDelayMs]);
    client.close();
  });

  test("a Retry-After past the operation's deadline fails with what to do", async () => {
    const clock = pacerClock();
    const { client } = clientFor(server, {}, { pacer: new RequestPacer(clock) });
    answer({ status: 429, headers: { "retry-after": "3000" }, body: { error: "rate limit exceeded" } });
    const err = await rejectionOf(withDeadline(deadlineIn(300, "timeouts.delete"), () => client.list("vms")));
    expect(err).toBeInstanceOf(BudgetWaitTooLong);
    expect(err.message).toMatch(
      /^GET \/v4\/vms: not sent, the platform's rate limit \(429 Retry-After\) lets the next request go in 3000s, after this operation's timeout; raise the resource's timeouts.*\(timeouts\.delete\)$/,
    );
    client.close();
  });
});

describe("observers", () => {
  test("an observer that throws does not fail the request", async () => {
    const { client } = clientFor(
      server,
      {},
      {
        onRequest: () => {
          throw new Error("logger broke");
        },
      },
    );
    await expect(client.list("vms")).resolves.toEqual([]);
    client.close();
  });
});
