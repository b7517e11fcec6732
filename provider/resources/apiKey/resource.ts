import { markerOf } from "../../reconcile/createMarker";
import { createApiKey, readApiKey, type ApiKeyState } from "./platform";
import { updateRow } from "../../reconcile/automation/rows";
import { type ApiKeyInputs, apiKeyExpiryProblems, apiKeyInputsSchema, apiKeyOutputs, apiKeyShape, judgesExpiry } from "./schema";
import { type OutputValues, withoutOutputs } from "../../schemas/outputs";
import { declaredFields } from "../framework/declaredFields";
import { defineResource } from "../framework/defineResource";
import { resolveTimeouts } from "../framework/operationTimeouts";
import { answerReads } from "../../reconcile/gathering";
import { perSession } from "../../reconcile/session";
import { API_KEY_TABLE, USER_TABLE } from "../../schemas/tables";

type Inputs = ApiKeyInputs;
/** `secret` is absent after an import: the platform answers it only at creation. */
type Outputs = Inputs & Partial<OutputValues<typeof apiKeyOutputs>>;

/** The outputs the platform reports besides the inputs (the secret is not among them). */
const reported = (live: ApiKeyState) => ({ created: live.created, lastLoginStamp: live.lastLoginStamp, lastLoginIp: live.lastLoginIp });

const createdTimeReads = perSession(answerReads);

export const apiKey = defineResource<Inputs, Outputs>({
  token: "ApiKey",
  table: API_KEY_TABLE,
  description:
    "An API key of a user, with the user's rights. Its secret is a Pulumi secret output, answered once at creation; " +
    "changing rotation replaces the key (the new one is created before the old one is deleted).",
  schema: apiKeyInputsSchema,
  shape: apiKeyShape,
  outputs: apiKeyOutputs,
  // Key names need not be unique: `user` and `rotation` replace a key, the new one made before the old one goes.
  names: "free",
  marker: "description",
  hooks: ({ rows, shared }) => ({
    // A past expiry is refused only when it is new (a key that expired since is refresh's business), and past by the
    // platform's clock, which decides when the key stops working: asked only then, as a check may precede any answer.
    verify: async (session, inputs, unknown, olds) => {
      const recorded = olds?.expires as string | undefined;
      if (unknown.has("expires") || !judgesExpiry(inputs.expires, recorded)) return [];
      const problems = apiKeyExpiryProblems(inputs.expires, recorded, await session.askPlatformNow());
      return problems.map((p) => ({ property: p.path.join("."), reason: p.message }));
    },

    async create(api, inputs) {
      const budgetMs = resolveTimeouts(inputs.timeouts).create * 1000;
      const newUser = inputs.user !== undefined && api.created(USER_TABLE, String(inputs.user));
      // Its creation time is not in the answer: read with the other keys made meanwhile (a class's, see answerReads).
      return createdTimeReads(api).around(async (readTogether) => {
        const created = await createApiKey(api, rows, inputs, { marker: markerOf(inputs), budgetMs, newUser });
        await readTogether();
        const live = await readApiKey(api, rows, created.key, () => api.platformNow(), inputs);
        return { id: created.key, outs: { ...inputs, ...(live && reported(live)), secret: created.secret.reveal() } };
      });
    },

    async read(api, id, olds) {
      const declared = withoutOutputs(olds, apiKeyOutputs) as Partial<Inputs>;
      const live = await readApiKey(api, rows, id, () => api.platformNow(), declaredFields(declared));
      if (!live) return undefined;
      const inputs = { ...declared, ...live.inputs } as Inputs;
      return { outs: { ...inputs, ...reported(live), ...(olds.secret === undefined ? {} : { secret: olds.secret }) }, inputs };
    },

    async update(api, id, olds, news) {
      const d = shared.diff(id, olds, news);
      await updateRow(api, rows, id, news, d.updates.filter((f) => !d.noApiCall.includes(f)) as (keyof Inputs & string)[]);
      const { created, lastLoginStamp, lastLoginIp, secret } = olds;
      return { ...news, created, lastLoginStamp, lastLoginIp, secret } as Outputs;
    },
  }),
});
