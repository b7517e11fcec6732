import { buildContext, createApiKeyIn } from "../index";
import { budgetsOf, CONSOLE_LISTINGS, consoleLists } from "./consoleState";
import { RequestLog } from "./requestLog";

describe("the console's lists", () => {
  test("every list reads a table the emulator has, with fields it knows (a misspelt one would throw)", () => {
    const ctx = buildContext({ adminPassword: "pw" });
    try {
      for (const { table } of Object.values(CONSOLE_LISTINGS)) expect(ctx.tables.has(table)).toBe(true);
      expect(Object.keys(consoleLists(ctx))).toEqual(Object.keys(CONSOLE_LISTINGS));
    } finally {
      ctx.close();
    }
  });

  test("no hidden field reaches them: not the password hash, not an API key's secret", () => {
    const ctx = buildContext({ adminPassword: "pw" });
    try {
      const secret = createApiKeyIn(ctx, { name: "ci" });
      const text = JSON.stringify(consoleLists(ctx));
      expect(text).toContain('"name":"ci"');
      expect(text).not.toContain(secret);
      expect(text).not.toMatch(/password|secret/);
    } finally {
      ctx.close();
    }
  });
});

describe("budgets are shown per API key name", () => {
  test("the rate limiter's <user>/<key> caller becomes the key name the request counter uses", () => {
    expect(budgetsOf([{ id: "admin/ci-key", used: 3, left: 997, resetsInS: 3500 }])).toEqual([
      { caller: "ci-key", used: 3, left: 997, resetsInS: 3500 },
    ]);
  });
});

describe("the request log keeps the newest entries first, up to its size", () => {
  test("an entry past the size pushes the oldest out", () => {
    const log = new RequestLog(2);
    for (const status of [200, 201, 404]) log.add({ at: status, method: "GET", path: "/api/v4/vms", status, caller: "k", ms: 1 });
    expect(log.latest(5).map((e) => e.status)).toEqual([404, 201]);
    expect(log.latest(1).map((e) => e.status)).toEqual([404]);
  });
});
