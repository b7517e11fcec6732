import { markerOf } from "../../reconcile/createMarker";
import { identityOf } from "../../reconcile/identities";
import { answerReads } from "../../reconcile/gathering";
import { perSession } from "../../reconcile/session";
import { createRow, rowByName, updateRow } from "../../reconcile/automation/rows";
import { str } from "../../reconcile/platform";
import { type UserInputs, userInputsSchema, userShape } from "./schema";
import { assertAdoptable, findAdoptable } from "../framework/adoption";
import { defineResource } from "../framework/defineResource";
import { resolveTimeouts } from "../framework/operationTimeouts";
import { USER_TABLE } from "../../schemas/tables";

const identityReads = perSession(answerReads);

export const user = defineResource<UserInputs, UserInputs>({
  token: "User",
  table: USER_TABLE,
  description: "A user of the platform; its API keys have its rights, so a pipeline gets a user of its own.",
  schema: userInputsSchema,
  shape: userShape,
  // A user has no field to mark as ours, so it is never taken over: found after a lost answer by its unique name,
  // and a new user named like one on the platform is refused at preview, unless adopted. Every field changes in
  // place (a new password is sent again).
  names: "unique",
  marker: "none",
  hooks: ({ rows }) => ({
    async create(api, inputs) {
      if (inputs.adopt) {
        const what = `user '${inputs.name}'`;
        const row = await findAdoptable(what, inputs.adopt, {
          byKey: (key) => api.get(rows.table, key, rows.readFields),
          byName: () => rowByName(api, rows.table, "user", inputs.name, rows.readFields).catch(() => undefined),
        });
        const { password: _unreadable, ...comparable } = inputs;
        assertAdoptable(what, comparable, rows.fromApiRow(row, comparable));
        // The adopted user takes the declared password (the platform cannot say whether it is the same).
        if (inputs.password !== undefined) await updateRow(api, rows, str(row.$key), inputs, ["password"]);
        return { id: str(row.$key), outs: inputs };
      }
      const budgetMs = resolveTimeouts(inputs.timeouts).create * 1000;
      if (inputs.role !== "none")
        return { id: (await createRow(api, rows, inputs, { marker: markerOf(inputs), budgetMs })).key, outs: inputs };
      // A user of role none reaches only what grants give it, and each grant names its identity: read now, with the
      // other users made meanwhile (a class's users, one GET: see answerReads), not later with each first grant. A
      // failure is the grant's.
      return identityReads(api).around(async (readTogether) => {
        const created = await createRow(api, rows, inputs, { marker: markerOf(inputs), budgetMs });
        await readTogether();
        await identityOf(api, rows.table, created.key, "user").catch(() => undefined);
        return { id: created.key, outs: inputs };
      });
    },
  }),
});
