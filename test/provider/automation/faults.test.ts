// Creates of the automation rows under the faults of the fault matrix (late answer, dropped
// connection, 500, 503, 429, ...), run as the engine runs two `up`s: the first under the
// fault, the second (with the same marker) after it cleared. The first ends with exactly one
// row of the cell, the one answered (no duplicate), or fails leaving none when the platform
// refused (no orphan); the second then converges to one row. An API key whose answer was lost
// is made again, so its secret is always known.
// Updates and deletes (PUT and DELETE, sent again as they are) converge the same way.
// By default each kind and op runs under 3 of the 8 faults, every fault at least twice;
// VPLATFORM_FAULT_MATRIX=full runs all 72 cells.
import { faultSpecs, FAULT_NAMES } from "../faultMatrix/faults";
import { createApiKey } from "../../../provider/resources/apiKey/platform";
import { createRow, deleteRow, readRow, updateRow, type RowMapping } from "../../../provider/reconcile/automation/rows";
import { setScheduleTasks } from "../../../provider/resources/schedule/platform";
import { apiKeyInputsSchema } from "../../../provider/resources/apiKey/schema";
import { eventTriggerInputsSchema } from "../../../provider/resources/eventTrigger/schema";
import { scheduleInputsSchema } from "../../../provider/resources/schedule/schema";
import { taskInputsSchema } from "../../../provider/resources/task/schema";
import { userInputsSchema } from "../../../provider/resources/user/schema";
import { webhookInputsSchema } from "../../../provider/resources/webhook/schema";
import { once, type Site, startSite, STARTUP_MS } from "./site";
import { apiKeyRows, eventTriggerRows, scheduleRows, taskRows, userRows, webhookRows } from "./rowMappings";

const REQUEST_TIMEOUT_MS = 1_000;
const FAULTS = faultSpecs(REQUEST_TIMEOUT_MS);
const FULL = process.env.VPLATFORM_FAULT_MATRIX === "full";
/** Answers that refuse without processing (no "in progress" text, so not retried): the first create fails, leaving nothing. */
const REFUSALS = new Set(["507", "409 in progress"]);

let site: Site;
let vm: string;
beforeAll(async () => {
  site = await startSite({ config: { "vplatform:requestTimeoutMs": String(REQUEST_TIMEOUT_MS) } });
  vm = (await site.api.create("vms", { name: "watched" })).$key;
}, STARTUP_MS);
afterEach(() => site.call("DELETE", "/_emulator/faults"));
afterAll(() => site.close());

const keysOf = (rows: Record<string, unknown>[]) => rows.map((r) => String(r.$key));
const named = (table: string, name: string) => site.api.list(table, { filter: `name eq '${name}'`, fields: "$key" }).then(keysOf);

async function aWebhook(tag: string): Promise<string> {
  return (await createRow(site.api, webhookRows, webhookInputsSchema.parse({ name: `${tag}-hook`, url: "https://127.0.0.1:9/h" }), once()))
    .key;
}
async function aTask(tag: string): Promise<string> {
  const webhook = await aWebhook(tag);
  return (await createRow(site.api, taskRows, taskInputsSchema.parse({ name: `${tag}-task`, webhook }), once())).key;
}

interface Kind {
  table: string;
  /** Makes what the row needs, fault-free. */
  prepare(tag: string): Promise<Record<string, string>>;
  /** The create under the fault: the key it answers. */
  create(tag: string, made: Record<string, string>, opts: ReturnType<typeof once>): Promise<string>;
  /** Keys of the cell's rows on the platform. */
  rows(tag: string, made: Record<string, string>): Promise<string[]>;
}

const byName = <I>(
  m: RowMapping<I>,
  declare: (tag: string, made: Record<string, string>) => unknown,
  prepare = async (_tag: string) => ({}),
): Kind => ({
  table: m.table,
  prepare,
  create: async (tag, made, opts) => (await createRow(site.api, m, declare(tag, made) as I, opts)).key,
  rows: (tag) => named(m.table, tag),
});

const KINDS: Record<string, Kind> = {
  user: byName(userRows, (tag) => userInputsSchema.parse({ name: tag, password: "pw" })),
  webhook: byName(webhookRows, (tag) => webhookInputsSchema.parse({ name: tag, url: "https://127.0.0.1:9/h" })),
  task: byName(
    taskRows,
    (tag, made) => taskInputsSchema.parse({ name: tag, webhook: made.webhook }),
    async (tag) => ({ webhook: await aWebhook(tag) }),
  ),
  schedule: byName(scheduleRows, (tag) => scheduleInputsSchema.parse({ name: tag, start: "2031-01-01" })),
  "API key": {
    table: "user_api_keys",
    prepare: async () => ({}),
    async create(tag, _made, opts) {
      const { key, secret } = await createApiKey(site.api, apiKeyRows, apiKeyInputsSchema.parse({ name: tag }), opts);
      // The secret answered is the key's: it authenticates.
      expect((await site.call("GET", "/api/v4/system", undefined, secret.reveal())).status).toBe(200);
      return key;
    },
    rows: (tag) => named("user_api_keys", tag),
  },
  "event trigger": {
    table: "task_events",
    prepare: async (tag) => ({ task: await aTask(tag) }),
    create: async (_tag, made) =>
      (
        await createRow(
          site.api,
          eventTriggerRows,
          eventTriggerInputsSchema.parse({ task: made.task, type: "vms", event: "poweroff", object: vm }),
          once(),
        )
      ).key,
    rows: (_tag, made) => site.api.list("task_events", { filter: `task eq ${made.task}`, fields: "$key" }).then(keysOf),
  },
  "schedule link": {
    table: "task_schedule_triggers",
    prepare: async (tag) => ({
      task: await aTask(tag),
      schedule: (await createRow(site.api, scheduleRows, scheduleInputsSchema.parse({ name: `${tag}-s`, start: "2031-01-01" }), once()))
        .key,
    }),
    async create(_tag, made) {
      await setScheduleTasks(site.api, made.schedule, [made.task], 30_000);
      return (await this.rows(_tag, made))[0];
    },
    rows: (_tag, made) => site.api.list("task_schedule_triggers", { filter: `schedule eq ${made.schedule}`, fields: "$key" }).then(keysOf),
  },
};

const kindNames = Object.keys(KINDS);
const cells = kindNames.flatMap((kind, k) =>
  FAULT_NAMES.filter((_f, f) => FULL || (f - k * 3 + 3 * FAULT_NAMES.length) % FAULT_NAMES.length < 3).map(
    (fault) => [kind, fault] as const,
  ),
);

describe("a create under a fault leaves exactly the row it answers, or none when refused for good", () => {
  test("the sample covers every fault and every kind", () => {
    expect(new Set(cells.map(([, f]) => f))).toEqual(new Set(FAULT_NAMES));
    expect(new Set(cells.map(([k]) => k))).toEqual(new Set(kindNames));
  });

  let cellNo = 0;
  test.each(cells)(
    "%s under %s",
    async (kindName, fault) => {
      const kind = KINDS[kindName];
      const tag = `cell${++cellNo}-${kindName.replace(/ /g, "")}`;
      const made = await kind.prepare(tag);
      const opts = once(); // the resource's marker: the same in both runs
      await site.call("POST", "/_emulator/faults", { method: "POST", table: kind.table, ...FAULTS[fault]() });
      const first = await kind.create(tag, made, opts).then(
        (key) => ({ key }),
        (error: unknown) => ({ error }),
      );
      await site.call("DELETE", "/_emulator/faults");
      await new Promise((r) => setTimeout(r, fault === "late answer" || fault === "stall past timeout" ? 700 : 0)); // a late commit lands
      if ("error" in first) {
        expect([fault, REFUSALS.has(fault)]).toEqual([fault, true]);
        expect(await kind.rows(tag, made)).toEqual([]);
        const second = await kind.create(tag, made, opts);
        expect(await kind.rows(tag, made)).toEqual([second]);
        return;
      }
      expect(REFUSALS.has(fault)).toBe(false);
      expect(await kind.rows(tag, made)).toEqual([first.key]);
    },
    60_000,
  );
});

describe("an update or a delete under a fault converges: the PUT and the DELETE are sent again as they are", () => {
  const opCells = (["update", "delete"] as const).flatMap((op, o) =>
    FAULT_NAMES.filter((_f, f) => FULL || (f + o * 4) % FAULT_NAMES.length < 3).map((fault) => [op, fault] as const),
  );
  let cellNo = 0;
  test.each(opCells)(
    "webhook %s under %s",
    async (op, fault) => {
      const declared = webhookInputsSchema.parse({ name: `op${++cellNo}-${op}`, url: "https://127.0.0.1:9/h" });
      const { key } = await createRow(site.api, webhookRows, declared, once());
      const changed = { ...declared, timeout: 30, headers: [{ name: "X-Run", value: String(cellNo) }] };
      const run = () =>
        op === "update"
          ? updateRow(site.api, webhookRows, key, changed, ["timeout", "headers"])
          : deleteRow(site.api, webhookRows.table, key);
      await site.call("POST", "/_emulator/faults", {
        method: op === "update" ? "PUT" : "DELETE",
        table: "webhook_urls",
        ...FAULTS[fault](),
      });
      const first = await run().then(
        () => "done",
        () => "failed",
      );
      await site.call("DELETE", "/_emulator/faults");
      await new Promise((r) => setTimeout(r, fault === "late answer" || fault === "stall past timeout" ? 700 : 0));
      expect([fault, first === "failed" ? REFUSALS.has(fault) : true]).toEqual([fault, true]);
      if (first === "failed") await run(); // the next `up`
      const read = await readRow(site.api, webhookRows, key, changed);
      if (op === "update") expect(read?.inputs).toMatchObject({ timeout: 30, headers: changed.headers });
      else expect(read).toBeUndefined();
    },
    60_000,
  );
});
