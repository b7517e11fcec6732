import { insertRow, isAmbiguousFailure } from "./insertRow";
import { PlatformApi } from "./platform";
import { fakeClock } from "./testClock";

const err = (status?: number) => Object.assign(new Error(status ? `HTTP ${status}` : "socket hang up"), status ? { status } : {});

function api(createFails: Error | undefined): PlatformApi & { posts: number } {
  const a = {
    posts: 0,
    async create() {
      a.posts++;
      if (createFails) throw createFails;
      return { $key: "7" };
    },
    action: async () => ({}),
    list: async () => [],
    get: async () => undefined,
    update: async () => undefined,
    remove: async () => undefined,
  };
  return a;
}

describe("isAmbiguousFailure", () => {
  test("no answer, 5xx and 408 may have landed; 4xx answers did not", () => {
    expect([undefined, 500, 502, 408].map((s) => isAmbiguousFailure(err(s)))).toEqual([true, true, true, true]);
    expect([400, 404, 409, 422].map((s) => isAmbiguousFailure(err(s)))).toEqual([false, false, false, false]);
  });
});

describe("insertRow", () => {
  test("a dropped POST whose row landed is found by identity, never POSTed twice", async () => {
    const a = api(err());
    const created = await insertRow(a, "vnets", { name: "lab" }, async () => ({ $key: "12", name: "lab" }), fakeClock());
    expect(created.$key).toBe("12");
    expect(a.posts).toBe(1);
  });

  test("a dropped POST that did not land fails with the original error", async () => {
    const a = api(err());
    await expect(insertRow(a, "vnets", { name: "lab" }, async () => undefined, fakeClock())).rejects.toThrow("socket hang up");
    expect(a.posts).toBe(1);
  });

  test("a definite rejection is not looked up", async () => {
    const a = api(err(409));
    const find = jest.fn();
    await expect(insertRow(a, "vnets", { name: "lab" }, find, fakeClock())).rejects.toThrow("HTTP 409");
    expect(find).not.toHaveBeenCalled();
  });
});
