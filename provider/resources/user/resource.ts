import { diffFields, named, type ResourceDiff } from "../../plan/diff";
import { markerOf } from "../../reconcile/createMarker";
import { identityOf } from "../../reconcile/identities";
import { answerReads } from "../../reconcile/gathering";
import { perSession } from "../../reconcile/session";
import { userRows } from "./platform";
import { createRow, deleteRow, readRow, rowByName, updateRow } from "../../reconcile/automation/rows";
import { str, type Row } from "../../reconcile/platform";
import { quoteLiteral } from "../../client/query-string";
import { type UserInputs, userInputsSchema, userShape } from "./schema";
import { assertAdoptable, findAdoptable } from "../framework/adoption";
import { declaredFields } from "../framework/declaredFields";
import { defineResource } from "../framework/defineResource";
import { resolveTimeouts } from "../framework/operationTimeouts";
import { checkCopy } from "../framework/checkCopy";

type Inputs = UserInputs;

/** What changing a user does: every field changes in place (a new password is sent again). */
export function diffUser(olds: Row, news: Row): ResourceDiff {
  return diffFields(userShape, olds, news, { what: named("user", news), namesUniqueOnPlatform: true });
}

const identityReads = perSession(answerReads);

export const user = defineResource<Inputs, Inputs>({
  token: "User",
  table: userRows.table,
  description: "A user of the platform; its API keys have its rights, so a pipeline gets a user of its own.",
  schema: userInputsSchema,
  sdk: { refuseDuplicateNames: "inProgram" },
  diff: (_id, olds, news) => diffUser(olds, news),

  /**
   * A new user named like one on the platform would fail the `up` half-way (a user has no field to mark as
   * ours, so it is never taken over): the preview refuses it, unless adopted. One read-only look-up.
   */
  async verify(api, inputs, unknown, olds) {
    if (olds === undefined || unknown.has("name") || inputs.adopt || olds.name === inputs.name) return [];
    // The run's copy of the user names vouches for a free name (a class's 30 users: one read); a taken one is looked up afresh.
    const copy = await checkCopy(api, userRows.table, "$key,name");
    if (copy && !copy.some((r) => r.name === inputs.name)) return [];
    const [taken] = await api.list(userRows.table, { filter: `name eq ${quoteLiteral(inputs.name)}`, fields: "$key", limit: 1 });
    if (!taken) return [];
    const key = str(taken.$key);
    const reason = `name: a user named '${inputs.name}' already exists on the platform (key ${key}); set adopt: true (or adopt: '${key}') to manage it, or choose another name`;
    return [{ property: "name", reason }];
  },

  async create(api, inputs) {
    if (inputs.adopt) {
      const what = `user '${inputs.name}'`;
      const row = await findAdoptable(what, inputs.adopt, {
        byKey: (key) => api.get(userRows.table, key, userRows.readFields),
        byName: () => rowByName(api, userRows.table, "user", inputs.name, userRows.readFields).catch(() => undefined),
      });
      const { password: _unreadable, ...comparable } = inputs;
      assertAdoptable(what, comparable, userRows.fromApiRow(row, comparable));
      // The adopted user takes the declared password (the platform cannot say whether it is the same).
      if (inputs.password !== undefined) await updateRow(api, userRows, str(row.$key), inputs, ["password"]);
      return { id: str(row.$key), outs: inputs };
    }
    const budgetMs = resolveTimeouts(inputs.timeouts).create * 1000;
    if (inputs.role !== "none")
      return { id: (await createRow(api, userRows, inputs, { marker: markerOf(inputs), budgetMs })).key, outs: inputs };
    // A user of role none reaches only what grants give it, and each grant names its identity: read now, with the
    // other users made meanwhile (a class's users, one GET: see answerReads), not later with each first grant. A
    // failure is the grant's.
    return identityReads(api).around(async (readTogether) => {
      const created = await createRow(api, userRows, inputs, { marker: markerOf(inputs), budgetMs });
      await readTogether();
      await identityOf(api, userRows.table, created.key, "user").catch(() => undefined);
      return { id: created.key, outs: inputs };
    });
  },

  async read(api, id, olds) {
    const found = await readRow(api, userRows, id, declaredFields(olds));
    if (!found) return undefined;
    const inputs = { ...olds, ...found.inputs } as Inputs;
    return { outs: inputs, inputs };
  },

  async update(api, id, olds, news) {
    const d = diffUser(olds, news);
    const changed = d.updates.filter((f) => !d.noApiCall.includes(f)) as (keyof Inputs & string)[];
    await updateRow(api, userRows, id, news, changed);
    return news;
  },

  delete: (api, id) => deleteRow(api, userRows.table, id),
});
