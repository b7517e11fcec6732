import { insertRow, isAmbiguousFailure, settleDelays, UnsettledCreateError } from "./insertRow";
import type { PlatformApi, Row } from "./platform";
import { fakeClock } from "./testClock";

const err = (status?: number, text = "") =>
  Object.assign(new Error(status ? `HTTP ${status} ${text}` : "socket hang up"), status ? { status } : {});

/** A platform whose POSTs fail as told; `landsAfterLooks` makes a failed POST's row visible only after that many looks (a late commit). */
function platform(failures: Error[], opts: { lands?: boolean; landsAfterLooks?: number } = {}) {
  const rows: Row[] = [];
  let looks = 0;
  const pending: Row[] = [];
  const api: PlatformApi & { posts: number } = {
    posts: 0,
    async create(_table, body) {
      api.posts++;
      const row = { ...body, $key: String(10 + api.posts) };
      const failure = failures.shift();
      if (failure) {
        if (opts.lands) pending.push(row);
        throw failure;
      }
      rows.push(row);
      return { $key: row.$key };
    },
    action: async () => ({}),
    list: async () => [],
    get: async () => undefined,
    update: async () => undefined,
    remove: async () => undefined,
  };
  const findOurs = async () => {
    looks++;
    if (looks > (opts.landsAfterLooks ?? 0)) rows.push(...pending.splice(0));
    return rows[0];
  };
  return { api, rows, findOurs, looks: () => looks };
}

const insertion = (findOurs: () => Promise<Row | undefined>) => ({
  table: "machine_nics",
  body: { machine: 1 },
  what: "NIC of machine 1",
  findOurs,
});

describe("isAmbiguousFailure", () => {
  test("no answer, 5xx and 408 may have landed; 4xx answers did not", () => {
    expect([undefined, 500, 502, 408].map((s) => isAmbiguousFailure(err(s)))).toEqual([true, true, true, true]);
    expect([400, 404, 409, 422].map((s) => isAmbiguousFailure(err(s)))).toEqual([false, false, false, false]);
    expect([501, 505, 507].map((s) => isAmbiguousFailure(err(s)))).toEqual([false, false, false]);
  });
});

describe("insertRow: a create finds what an earlier attempt made instead of making it twice", () => {
  test("a row of ours from an earlier, interrupted run is taken over without a POST", async () => {
    const p = platform([]);
    p.rows.push({ $key: "7" });
    const created = await insertRow(p.api, insertion(p.findOurs), 60_000, fakeClock());
    expect(created).toMatchObject({ $key: "7", recovered: true });
    expect(p.api.posts).toBe(0);
  });

  test("where names are unique (lookFirst false), the first POST goes without a look; the row of an interrupted run shows as the name conflict and is taken over", async () => {
    const p = platform([]);
    expect(await insertRow(p.api, { ...insertion(p.findOurs), lookFirst: false }, 60_000, fakeClock())).toMatchObject({ recovered: false });
    expect(p.looks()).toBe(0);
    const q = platform([err(409, "VM with that name exists")]);
    q.rows.push({ $key: "7" });
    expect(await insertRow(q.api, { ...insertion(q.findOurs), lookFirst: false }, 60_000, fakeClock())).toMatchObject({
      $key: "7",
      recovered: true,
    });
    expect(q.looks()).toBe(1);
  });

  test("a lost answer whose row landed: found, never POSTed twice", async () => {
    const p = platform([err()], { lands: true });
    const created = await insertRow(p.api, insertion(p.findOurs), 60_000, fakeClock());
    expect(created).toMatchObject({ $key: "11", recovered: true });
    expect(p.api.posts).toBe(1);
  });

  test("a late answer (the row lands after the first look) is still found before any resend", async () => {
    const p = platform([err()], { lands: true, landsAfterLooks: 3 });
    const created = await insertRow(p.api, insertion(p.findOurs), 60_000, fakeClock());
    expect(created).toMatchObject({ $key: "11", recovered: true });
    expect(p.api.posts).toBe(1);
  });

  test("a row landing half a minute after a lost answer is found before any resend (create budget 600 s)", async () => {
    const p = platform([err()], { lands: true, landsAfterLooks: 8 });
    const clock = fakeClock();
    const created = await insertRow(p.api, insertion(p.findOurs), 600_000, clock);
    expect(created).toMatchObject({ $key: "11", recovered: true });
    expect(p.api.posts).toBe(1);
  });

  test("after no answer the looks span a quarter of the create budget, between 7.5 s and 60 s; after an answer one look after a backoff", () => {
    const span = (budget: number) => settleDelays(err(), 1, budget).reduce((a, b) => a + b, 0);
    expect([span(20_000), span(120_000), span(600_000), span(3_600_000)]).toEqual([7_500, 30_000, 60_000, 60_000]);
    expect(settleDelays(err(), 1, 30_000)).toEqual([0, 500, 1_000, 2_000, 4_000]);
    expect(settleDelays(err(503), 3, 600_000)).toEqual([1_000]);
  });

  test("a burst of 503s that did not land: sent again after looking, one row", async () => {
    const p = platform([err(503), err(503), err(503)]);
    const created = await insertRow(p.api, insertion(p.findOurs), 120_000, fakeClock());
    expect(created).toMatchObject({ $key: "14", recovered: false });
    expect(p.rows).toHaveLength(1);
  });

  test("409 operation in progress is waited out", async () => {
    const p = platform([err(409, "operation in progress")]);
    expect(await insertRow(p.api, insertion(p.findOurs), 60_000, fakeClock())).toMatchObject({ recovered: false });
    expect(p.api.posts).toBe(2);
  });

  test("an outage longer than the create timeout fails saying the row may appear and the next up finds it", async () => {
    const p = platform(Array.from({ length: 100 }, () => err()));
    const failure = await insertRow(p.api, insertion(p.findOurs), 20_000, fakeClock()).catch((e) => e);
    expect(failure).toBeInstanceOf(UnsettledCreateError);
    expect(failure.message).toMatch(/socket hang up.*within 20 s.*next `pulumi up` looks for it by its marker/);
  });

  test("a definite rejection is not retried", async () => {
    const p = platform([err(422, "bad ram")]);
    await expect(insertRow(p.api, insertion(p.findOurs), 60_000, fakeClock())).rejects.toThrow("HTTP 422");
    expect(p.api.posts).toBe(1);
  });

  test("a name taken by a row that is not ours fails at once", async () => {
    const p = platform([err(409, "VM with that name exists")]);
    await expect(insertRow(p.api, insertion(p.findOurs), 60_000, fakeClock())).rejects.toThrow("exists");
    expect(p.api.posts).toBe(1);
  });
});
