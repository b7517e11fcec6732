import { jsonDifferences } from "./jsonDiff";
import { REDACTED, redact, redactUrl } from "./redact";

describe("the recorder never writes a secret", () => {
  test("secret-bearing names are redacted at any depth, other values kept", () => {
    const answer = { $key: "7", response: { token: "vpk_7_abc", private_key: "vpk_7_abc" }, name: "ci", nested: [{ password: "pw" }] };
    expect(redact(answer)).toEqual({
      $key: "7",
      response: { token: REDACTED, private_key: REDACTED },
      name: "ci",
      nested: [{ password: REDACTED }],
    });
  });

  test("API-key secrets and session tokens are hidden wherever they appear in text", () => {
    expect(redact({ note: "use vpk_12_00ff please" })).toEqual({ note: `use ${REDACTED} please` });
    expect(redactUrl("/api/sys/tokens/3fa9c0?x=1")).toBe(`/api/sys/tokens/${REDACTED}?x=1`);
    const session = { $key: "3fa9c0", location: "/sys/tokens/3fa9c0" };
    expect(redact(session, true)).toEqual({ $key: REDACTED, location: `/sys/tokens/${REDACTED}` });
  });
});

describe("replay differences", () => {
  test("name each differing path; a redacted value and ignored names match anything", () => {
    const recorded = [{ name: "a", status: "running", created: 1, token: REDACTED }];
    expect(jsonDifferences(recorded, [{ name: "a", status: "stopped", created: 2, token: "x" }], new Set(["created"]))).toEqual([
      '[0].status: "running" ≠ "stopped"',
    ]);
    expect(jsonDifferences({ a: 1 }, { a: 1, b: 2 }, new Set())).toEqual(["b: absent ≠ 2"]);
  });

  test("timing fields differ at any depth without counting; a real difference beside them still does", () => {
    const recorded = {
      $key: 4,
      status: "sent",
      started: 100,
      last_attempt: 101,
      response: { created: 100, walk: { last_walk_time_ms: 7 } },
    };
    const replayed = {
      $key: 4,
      status: "error",
      started: 250,
      last_attempt: 260,
      response: { created: 250, walk: { last_walk_time_ms: 9 } },
    };
    expect(jsonDifferences(recorded, replayed, new Set())).toEqual(['status: "sent" ≠ "error"']);
    expect(jsonDifferences(recorded, { ...recorded, started: 999 }, new Set())).toEqual([]);
  });
});
