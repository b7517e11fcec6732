import { ApiError } from "../../../provider/client/errors";
import { RequestLedger } from "../../../provider/client/request-ledger";
import { RequestBudgetExceeded } from "../../../provider/client/errors";
import { Reply, SeenRequest, TestServer, startTestServer } from "./https-test-server";
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
      location: "/v4/vms/42", dbpath: "vms/42", $row: 42, $key: "42", response: { machine: "154" },
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

describe("errors", () => {
  test("carry status, method, path and the API's err text", async () => {
    const { client } = clientFor(server);
    answer({ status: 400, body: { err: "Validation error on field: 'ram' - 'fails validation test'" } });
    const err = await rejectionOf(client.create("vms", { name: "x", ram: 1 }));
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 400, method: "POST", path: "/v4/vms", apiMessage: "Validation error on field: 'ram' - 'fails validation test'" });
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

  test("the request budget stops the client before it sends one request too many", async () => {
    const { client } = clientFor(server, { requestBudget: 2 });
    await client.list("vms");
    await client.list("vms");
    const err = await rejectionOf(client.list("vnets"));
    expect(err).toBeInstanceOf(RequestBudgetExceeded);
    expect(err.message).toBe("GET /v4/vnets: not sent, the request budget of 2 requests (vplatform:requestBudget) is used up");
    expect(server.seen).toHaveLength(2);
    client.close();
  });

  test("retries count against the budget", async () => {
    const { client } = clientFor(server, { requestBudget: 2 });
    answer({ status: 503 }, { status: 503 }, { status: 200, body: [] });
    await expect(client.list("vms")).rejects.toBeInstanceOf(RequestBudgetExceeded);
    expect(server.seen).toHaveLength(2);
    client.close();
  });

  test("the budget is shared by the clients of one ledger (a new client per configure() does not reset it)", async () => {
    const ledger = new RequestLedger();
    const first = clientFor(server, { requestBudget: 2 }, { ledger });
    await first.client.list("vms");
    first.client.close();
    const second = clientFor(server, { requestBudget: 2 }, { ledger });
    await second.client.list("vms");
    await expect(second.client.list("vms")).rejects.toBeInstanceOf(RequestBudgetExceeded);
    expect(second.client.requestCount).toBe(1);
    expect(ledger.sent).toBe(2);
    second.client.close();
  });

  test("an observer that throws does not fail the request", async () => {
    const { client } = clientFor(server, {}, { onRequest: () => { throw new Error("logger broke"); } });
    await expect(client.list("vms")).resolves.toEqual([]);
    client.close();
  });
});
